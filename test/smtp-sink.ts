import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  /** Envelope sender and recipients, as the client gave them in MAIL FROM / RCPT TO. */
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string | null;
}

export interface SmtpSink {
  url: string;
  port: number;
  messages: SinkMessage[];
  /** When set, every message is refused with this text (554), to test delivery failures. */
  rejectWith: string | null;
  /** The first received message that matches, waiting up to timeoutMs for it. */
  waitFor(match?: (m: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that keeps what it receives. No STARTTLS and no
 * AUTH, so a client given smtp://127.0.0.1:<port> delivers in plain text.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<() => void>();
  const sink = { rejectWith: null as string | null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (sink.rejectWith) return callback(Object.assign(new Error(sink.rejectWith), { responseCode: 554 }));
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({ ...parseMessage(raw), from, to: session.envelope.rcptTo.map((r) => r.address) });
        for (const w of waiters) w();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
  });
  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(match: (m: SinkMessage) => boolean = () => true, timeoutMs = 15_000) {
      return new Promise<SinkMessage>((resolve, reject) => {
        const check = () => {
          const m = messages.find(match);
          if (!m) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

// A small MIME reader for the messages our own code sends (mailparser is not a dependency): it
// unfolds headers, walks multipart bodies and decodes quoted-printable, base64 and encoded words.

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

const decodeWords = (s: string) =>
  s.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=\s*/g, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeBody(data.replace(/_/g, ' '), 'quoted-printable'),
  );

function collectParts(raw: string, out: { text?: string; html?: string }) {
  const { headers, body } = splitHeaders(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r?\n/, ''), out);
    }
    return;
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding']).replace(/\r?\n$/, '');
  if (/^text\/html/i.test(type)) out.html ??= decoded;
  else if (/^text\/plain/i.test(type)) out.text ??= decoded;
}

export function parseMessage(raw: string): Omit<SinkMessage, 'from' | 'to'> {
  const { headers } = splitHeaders(raw);
  const out: { text?: string; html?: string } = {};
  collectParts(raw, out);
  return { raw, headers, subject: decodeWords(headers.subject ?? ''), text: (out.text ?? '').replace(/\r\n/g, '\n'), html: out.html ?? null };
}

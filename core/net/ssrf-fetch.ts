// The one SSRF-safe fetcher every server-side fetch goes through (crawls, metadata documents).
// Bun's fetch ignores an `agent`, so we resolve DNS ourselves, check every address, connect to
// the checked address (never the name again: no rebinding between check and connect), and
// follow redirects by hand, checking each hop.
import { lookup } from 'node:dns/promises';
import { checkAddress, checkUrl, UnsafeUrlError, type CheckedUrl } from './address-policy.ts';

export { UnsafeUrlError, type UnsafeReason } from './address-policy.ts';

export interface SafeFetcherOptions {
  allowLoopback?: boolean;
  maxRedirects?: number;
  timeoutMs?: number;
  maxBytes?: number;
  userAgent: string;
  resolve?: (host: string) => Promise<string[]>;
  /** Extra CA certificate(s) in PEM to trust for https (tests with a self-signed server). */
  ca?: string;
}

export interface SafeResponse {
  /** The final URL, after redirects (with the original host name, not the IP). */
  url: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Every URL a redirect led to, in order; the last one equals `url` when non-empty. */
  redirects: string[];
}

export interface SafeFetchInit {
  accept?: string;
  /**
   * Follow redirects only within the first URL's host (http to https and a leading www. allowed):
   * for proofs of control of a site, where a page on another host proves nothing.
   */
  sameHostOnly?: boolean;
}

export type SafeFetch = (url: string, init?: SafeFetchInit) => Promise<SafeResponse>;

const bareHost = (u: URL) => u.hostname.replace(/^www\./, '');
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };
const portOf = (u: URL) => u.port || DEFAULT_PORT[u.protocol] || '';

/** The same site: the host without www., and the same port unless the hop moves to https's default. */
export function sameHost(from: URL, to: URL): boolean {
  if (bareHost(from) !== bareHost(to)) return false;
  return portOf(from) === portOf(to) || (to.protocol === 'https:' && portOf(to) === '443');
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

export function createSafeFetcher(opts: SafeFetcherOptions): SafeFetch {
  const policy = { allowLoopback: opts.allowLoopback === true };
  const maxRedirects = opts.maxRedirects ?? 5;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
  const resolve = opts.resolve ?? systemResolve;

  // The address to connect to: the literal itself, or the first of the resolved addresses
  // once ALL of them passed (one bad record refuses the name).
  async function addressFor(checked: CheckedUrl, signal: AbortSignal): Promise<string> {
    if (checked.literal !== null) return checked.literal;
    let addresses: string[];
    try {
      addresses = await untilAborted(resolve(checked.host), signal);
    } catch (error) {
      if (signal.aborted) throw timeoutError(timeoutMs);
      throw new UnsafeUrlError('unresolvable', `cannot resolve ${checked.host}: ${(error as Error).message}`);
    }
    if (addresses.length === 0) throw new UnsafeUrlError('unresolvable', `${checked.host} has no addresses`);
    const allowed = addresses.map((address) => checkAddress(address, policy));
    return allowed[0]!;
  }

  async function hop(checked: CheckedUrl, accept: string, signal: AbortSignal): Promise<Response> {
    const address = await addressFor(checked, signal);
    const { url } = checked;
    const target = new URL(url.href);
    target.hostname = address.includes(':') ? `[${address}]` : address;
    target.hash = '';
    return fetch(target.href, {
      method: 'GET',
      redirect: 'manual',
      signal,
      proxy: false, // connect directly to the checked address, never through an env proxy
      headers: { Host: url.host, 'User-Agent': opts.userAgent, Accept: accept },
      // SNI and certificate verification against the original name while connecting to the IP.
      tls: url.protocol === 'https:' ? { serverName: checked.host, ...(opts.ca ? { ca: opts.ca } : {}) } : undefined,
    });
  }

  return async function safeFetch(raw, init = {}) {
    const signal = AbortSignal.timeout(timeoutMs);
    const accept = init.accept ?? '*/*';
    const redirects: string[] = [];
    let checked = checkUrl(raw, policy);
    try {
      for (;;) {
        const response = await hop(checked, accept, signal);
        const location = response.headers.get('location');
        if (REDIRECTS.has(response.status) && location !== null) {
          await response.body?.cancel().catch(() => {});
          if (redirects.length >= maxRedirects) {
            throw new UnsafeUrlError('redirects', `more than ${maxRedirects} redirects`);
          }
          let next: URL;
          try {
            next = new URL(location, checked.url);
          } catch {
            throw new UnsafeUrlError('scheme', `redirect to an invalid URL: ${location}`);
          }
          if (init.sameHostOnly && !sameHost(checked.url, next)) {
            throw new UnsafeUrlError('redirects', `${checked.url.href} redirects to another host (${next.host}); only the site's own host counts`);
          }
          checked = checkUrl(next, policy);
          redirects.push(checked.url.href);
          continue;
        }
        const body = await readCapped(response, maxBytes);
        return { url: checked.url.href, status: response.status, headers: response.headers, body, redirects };
      }
    } catch (error) {
      if (error instanceof UnsafeUrlError) throw error;
      if (signal.aborted) throw timeoutError(timeoutMs);
      throw error;
    }
  };
}

function timeoutError(timeoutMs: number): UnsafeUrlError {
  return new UnsafeUrlError('timeout', `no complete answer within ${timeoutMs} ms`);
}

// DNS lookups cannot be aborted; stop waiting for them when the time cap passes.
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// Reads the body up to maxBytes; refuses early on a larger Content-Length and stops reading
// (cancelling the stream) as soon as the decoded body passes the cap.
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new UnsafeUrlError('too_large', `response body is larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

import { parseArgs } from 'node:util';
import { recentMail } from '../../core/mail/outbox.ts';
import { email, EXIT, isoTime, UsageError, type OpsIo } from './io.ts';

function limit(raw: string | undefined): number {
  if (raw === undefined) return 20;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${raw}"`);
  return Number(raw);
}

/** outbox [--limit N] [--to E]: recent mail with its text body, so sign-in links can be read and followed. */
export async function outboxCommand(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' }, to: { type: 'string' } }, strict: true });
  const mails = await recentMail(io.sql, { limit: limit(values.limit), to: values.to === undefined ? undefined : email(values.to, '--to') });
  if (!mails.length) {
    io.out(values.to ? `no mail to ${values.to}` : 'the outbox is empty');
    return EXIT.ok;
  }
  for (const m of mails) {
    const status = m.sent_at
      ? `sent ${isoTime(m.sent_at)}`
      : `not sent${m.attempts ? ` (${m.attempts} attempts${m.last_error ? `, last error: ${m.last_error}` : ''})` : ''}`;
    io.out(`#${m.id}  ${isoTime(m.created_at)}  to ${m.to_address}  [${m.kind}]  ${status}`);
    io.out(`Subject: ${m.subject}`);
    io.out('');
    for (const line of m.body_text.split(/\r?\n/)) io.out(`    ${line}`);
    io.out('');
  }
  return EXIT.ok;
}

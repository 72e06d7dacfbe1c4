import type { Sql } from '../../sql/db.ts';
import { enqueue, JOBS } from '../jobs/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  kind: string;
  /** An order document (order_documents.id) attached to the mail as its PDF. */
  documentId?: string | null;
}

/**
 * Records a mail in the outbox and enqueues its delivery in the caller's transaction (pass the
 * transaction as `sql`), so a mail is sent exactly when the change that caused it commits. The
 * send_mail job delivers it by SMTP when SMTP_URL is set; otherwise it stays in the outbox.
 */
export async function enqueueMail(sql: Sql, m: MailMessage): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into mail_outbox (to_address, subject, body_text, body_html, kind, document_id)
    values (${m.to}, ${m.subject}, ${m.text}, ${m.html ?? null}, ${m.kind}, ${m.documentId ?? null})
    returning id::text`;
  await enqueue(sql, JOBS.send_mail, { id: Number(row.id) });
  return row.id;
}

export interface OutboxEntry {
  id: string;
  to_address: string;
  subject: string;
  body_text: string;
  kind: string;
  created_at: Date;
  sent_at: Date | null;
  attempts: number;
  last_error: string | null;
}

export async function recentMail(sql: Sql, opts: { limit?: number; to?: string } = {}): Promise<OutboxEntry[]> {
  return sql<OutboxEntry[]>`
    select id::text, to_address, subject, body_text, kind, created_at, sent_at, attempts, last_error
    from mail_outbox ${opts.to ? sql`where lower(to_address) = lower(${opts.to})` : sql``}
    order by created_at desc, id desc limit ${opts.limit ?? 20}`;
}

import nodemailer from 'nodemailer';
import type { Config } from '../../core/config.ts';
import { JOBS } from '../../core/jobs/index.ts';
import { defineTask, type TaskDeps } from './task.ts';

interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  sent_at: Date | null;
  document_number: string | null;
  document_pdf: Buffer | null;
}

export interface MailDeps extends TaskDeps {
  mail: Config['mail'];
}

/**
 * send_mail {id}: delivers one mail_outbox row by SMTP when SMTP_URL is set and marks it sent.
 * Delivery is at least once: the row is re-read first and a sent row is left alone; a failure is
 * recorded on the row (attempts, last_error) and rethrown so graphile-worker retries with backoff.
 * Without SMTP_URL the row stays in the outbox for operators (`npm run ops -- outbox`).
 */
export function sendMail(deps: MailDeps) {
  const { sql, mail } = deps;
  // One transport per worker; short timeouts so a dead server fails the job instead of holding it.
  const transport = mail.smtpUrl
    ? nodemailer.createTransport({ url: mail.smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 })
    : null;
  let toldNoSmtp = false;

  return defineTask(JOBS.send_mail, async ({ id }, helpers) => {
    const [row] = await sql<OutboxRow[]>`
      select m.id::text, m.to_address, m.subject, m.body_text, m.body_html, m.sent_at, d.number as document_number, d.pdf as document_pdf
      from mail_outbox m left join order_documents d on d.id = m.document_id where m.id = ${id}`;
    if (!row) {
      helpers.logger.warn(`send_mail: no mail_outbox row ${id}`);
      return;
    }
    if (row.sent_at) return;

    if (!transport) {
      if (!toldNoSmtp) helpers.logger.info('SMTP_URL is not set: mail stays in the mail_outbox table (npm run ops -- outbox)');
      toldNoSmtp = true;
      return;
    }

    try {
      const attachments =
        row.document_pdf && row.document_number
          ? [{ filename: `${row.document_number}.pdf`, content: Buffer.from(row.document_pdf), contentType: 'application/pdf' }]
          : undefined;
      await transport.sendMail({
        from: mail.from,
        to: row.to_address,
        subject: row.subject,
        text: row.body_text,
        html: row.body_html ?? undefined,
        attachments,
      });
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      await sql`update mail_outbox set attempts = attempts + 1, last_error = ${message} where id = ${id}`;
      throw err;
    }
    await sql`update mail_outbox set attempts = attempts + 1, last_error = null, sent_at = now() where id = ${id} and sent_at is null`;
  });
}

// the invite form's NUL byte and size, invalid Unicode in forms, and invite mail abuse
// (free text to any address, unlimited invites), against a real database.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { loadConfig } from '../../core/config.ts';
import { ensureSite } from '../../sql/site.ts';
import { transaction } from '../../sql/db.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { createInvite, INVITE_MAILS_PER_ADDRESS_PER_DAY, INVITES_PER_DAY } from '../../core/drafts/invites-store.ts';
import { inviteCofounder } from '../../core/drafts/invite-cofounder.ts';
import { contentOf, draftById, insertDraft, writeContent } from '../../core/drafts/store.ts';
import { DomainError } from '../../core/errors/index.ts';
import { MAX_FORM_BYTES } from './common.tsx';
import { invitePage } from './invite-page.tsx';

const config = loadConfig({ SITE_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' });
let db: Awaited<ReturnType<typeof freshDatabase>>;
let pages: ReturnType<typeof invitePage>;
let siteId = 0;
let site: Awaited<ReturnType<typeof ensureSite>>;

beforeAll(async () => {
  db = await freshDatabase();
  site = await ensureSite(db.sql, 'main', config.siteUrl);
  siteId = site.id;
  pages = invitePage({ sql: db.sql, config, site: { ...site } });
}, 60_000);
afterAll(() => db?.drop());

const newDraft = async (userId: string, name?: string) => {
  const id = await transaction(db.sql, (tx) => insertDraft(tx, { siteId, userId, url: 'https://lumen.example/', domain: 'lumen.example' }));
  if (name !== undefined) {
    const content = contentOf((await draftById(db.sql, id))!);
    content.fields.name = { value: name, state: 'manual', evidence: [] } as never;
    await writeContent(db.sql, id, content);
  }
  return id;
};

async function post(token: string, body: BodyInit, type = 'application/x-www-form-urlencoded') {
  const shown = await pages.show(new Request(`${config.siteUrl}/invites/${token}`), token);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await shown.text())![1]!;
  const cookie = shown.headers.get('set-cookie')!.split(';')[0]!;
  const withCsrf = typeof body === 'string' ? `csrf=${encodeURIComponent(csrf)}&${body}` : body;
  return pages.accept(new Request(`${config.siteUrl}/invites/${token}`, { method: 'POST', body: withCsrf, headers: { cookie, 'content-type': type } }), token);
}

test('the invite form: a NUL byte is a 400, a body past the form cap is a 413, and nothing is added', async () => {
  const owner = await findOrCreateUser(db.sql, 'form-owner@example.com');
  const id = await newDraft(owner.id);
  const invite = await transaction(db.sql, (tx) => createInvite(tx, { draftId: id, email: 'co@example.com', invitedBy: owner.id }));
  const nul = await post(invite.token, 'name=a%00b');
  expect(nul.status).toBe(400);
  const big = await post(invite.token, `name=${'x'.repeat(MAX_FORM_BYTES + 10)}`);
  expect(big.status).toBe(413);
  expect(await big.text()).not.toContain('xxxxxxxxxx');
  const multipart = new FormData();
  multipart.append('name', 'a\uD800b');
  const lone = await post(invite.token, multipart, undefined as never);
  expect(lone.status).toBeLessThan(500);
  const row = (await draftById(db.sql, id))!;
  expect(contentOf(row).founders.value).toEqual([]);
});

test('invite mail carries the product name as one short line, never free text', async () => {
  const owner = await findOrCreateUser(db.sql, 'mailer@example.com');
  const id = await newDraft(owner.id, `Acme\n\nClaim your prize at https://evil.example/ now ${'!'.repeat(300)}`);
  await inviteCofounder(
    { sql: db.sql, userId: owner.id, siteId, email: owner.email, siteName: 'Directory', siteUrl: config.siteUrl },
    id,
    'victim@example.com',
  );
  const [mail] = await db.sql`select subject, body_text from mail_outbox where to_address = 'victim@example.com'`;
  expect(mail!.subject).not.toContain('\n');
  expect(mail!.subject.length).toBeLessThan(140);
  expect((mail!.body_text as string).split('\n')[0]!.length).toBeLessThan(260);
  expect(mail!.body_text).not.toContain('\n\nClaim your prize');
});

test('invites per person per day and invite mails per address per day are capped with a coded 429', async () => {
  const owner = await findOrCreateUser(db.sql, 'spammer@example.com');
  const codes: string[] = [];
  const invite = async (draftId: string, email: string) => {
    try {
      await transaction(db.sql, (tx) => createInvite(tx, { draftId, email, invitedBy: owner.id }));
      codes.push('ok');
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      codes.push(err.code);
    }
  };
  for (let i = 0; i < INVITES_PER_DAY + 1; i++) {
    const draft = await newDraft(owner.id);
    await invite(draft, `target${i}@example.com`);
  }
  expect(codes.filter((c) => c === 'ok')).toHaveLength(INVITES_PER_DAY);
  expect(codes.at(-1)).toBe('invite_daily_limit');

  const other = await findOrCreateUser(db.sql, 'resender@example.com');
  const draft = await newDraft(other.id);
  const sent: string[] = [];
  for (let i = 0; i < INVITE_MAILS_PER_ADDRESS_PER_DAY + 1; i++) {
    try {
      await inviteCofounder(
        { sql: db.sql, userId: other.id, siteId, email: other.email, siteName: 'Directory', siteUrl: config.siteUrl },
        draft,
        'same@example.com',
      );
      sent.push('ok');
    } catch (err) {
      sent.push((err as DomainError).code);
    }
  }
  expect(sent).toEqual([...Array(INVITE_MAILS_PER_ADDRESS_PER_DAY).fill('ok'), 'invite_daily_limit']);
});

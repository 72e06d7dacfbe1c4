// The co-founder invite page (api/site/invite-page.ts) against a real database: the single-use
// link's form, CSRF, validation, and the founder landing on the draft and on its listing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { loadConfig } from '../../core/config.ts';
import { ensureSite } from '../../sql/site.ts';
import { transaction } from '../../sql/db.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { createInvite } from '../../core/drafts/invites-store.ts';
import { contentOf, draftById, insertDraft, writeContent } from '../../core/drafts/store.ts';
import { setSection } from '../../core/drafts/model.ts';
import { syncListing } from '../../core/drafts/listing-sync.ts';
import { invitePage } from '../site/invite-page.tsx';

const config = loadConfig({ SITE_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' });
let db: Awaited<ReturnType<typeof freshDatabase>>;
let pages: ReturnType<typeof invitePage>;
let ownerId = '';
let siteId = 0;

beforeAll(async () => {
  db = await freshDatabase();
  const site = await ensureSite(db.sql, 'main', config.siteUrl);
  siteId = site.id;
  pages = invitePage({ sql: db.sql, config, site: { ...site } });
  ownerId = (await findOrCreateUser(db.sql, 'owner@example.com')).id;
}, 60_000);
afterAll(() => db?.drop());

async function draftWithInvite(email: string, founders = 1) {
  const id = await transaction(db.sql, (tx) => insertDraft(tx, { siteId, userId: ownerId, url: 'https://lumen.example/', domain: 'lumen.example' }));
  const row = (await draftById(db.sql, id))!;
  const content = contentOf(row);
  setSection(
    content,
    'founders',
    Array.from({ length: founders }, (_, i) => ({ name: `Founder ${i + 1}`, title: null, bio: null, evidence: [] })),
  );
  await writeContent(db.sql, id, content);
  const invite = await transaction(db.sql, (tx) => createInvite(tx, { draftId: id, email, invitedBy: ownerId }));
  return { id, token: invite.token };
}

/** GET the form, then POST it back with the CSRF cookie and field. */
async function submitForm(token: string, fields: Record<string, string>, opts: { csrf?: string } = {}) {
  const shown = await pages.show(new Request(`${config.siteUrl}/invites/${token}`), token);
  expect(shown.status).toBe(200);
  const page = await shown.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
  const cookie = shown.headers.get('set-cookie')!.split(';')[0];
  const form = new URLSearchParams({ csrf: opts.csrf ?? csrf, ...fields });
  return pages.accept(
    new Request(`${config.siteUrl}/invites/${token}`, {
      method: 'POST',
      body: form,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    }),
    token,
  );
}

describe('the invite page', () => {
  test('shows a form naming the product and who invited whom', async () => {
    const { token } = await draftWithInvite('bo@example.com');
    const res = await pages.show(new Request(`${config.siteUrl}/invites/${token}`), token);
    const body = await res.text();
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(body).toContain('owner@example.com invited bo@example.com');
    expect(body).toContain('lumen.example');
    expect(body).toContain(`action="/invites/${token}"`);
  });

  test('adds the invitee as a founder once; the link then stops working', async () => {
    const { id, token } = await draftWithInvite('bo@example.com');
    const res = await submitForm(token, { name: 'Bo Chen', title: 'Co-founder and CTO', bio: 'Built search engines.' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Thank you, Bo Chen');
    const draft = contentOf((await draftById(db.sql, id))!);
    expect(draft.founders.state).toBe('manual');
    expect(draft.founders.value.map((f) => f.name)).toEqual(['Founder 1', 'Bo Chen']);
    expect(draft.founders.value[1]).toMatchObject({ title: 'Co-founder and CTO', bio: 'Built search engines.', evidence: [] });
    expect(draft.founders.value[1].invite_id).toBeDefined();
    const [invite] = await db.sql`select accepted_at, founder from draft_invites where draft_id = ${id}`;
    expect(invite.accepted_at).not.toBeNull();
    expect(invite.founder).toEqual({ name: 'Bo Chen', title: 'Co-founder and CTO', bio: 'Built search engines.' });
    expect((await pages.show(new Request(`${config.siteUrl}/invites/${token}`), token)).status).toBe(410);
  });

  test("a submitted draft's listing gains the founder too", async () => {
    const { id, token } = await draftWithInvite('cy@example.com');
    const row = (await draftById(db.sql, id))!;
    const { listingId } = await transaction(db.sql, (tx) => syncListing(tx, row, contentOf(row), 'all'));
    await db.sql`update drafts set listing_id = ${listingId} where id = ${id}`;
    expect((await submitForm(token, { name: 'Cy Ode' })).status).toBe(200);
    const founders =
      await db.sql`select f.name from listing_founders lf join founders f on f.id = lf.founder_id where lf.listing_id = ${listingId} order by lf.position`;
    expect(founders.map((f) => f.name)).toEqual(['Founder 1', 'Cy Ode']);
  });

  test('refuses forged forms, missing names, full founder lists and unknown links', async () => {
    const { token } = await draftWithInvite('dee@example.com');
    expect((await submitForm(token, { name: 'Dee' }, { csrf: 'forged' })).status).toBe(403);
    const noName = await submitForm(token, { name: '  ', title: 'CTO' });
    expect(noName.status).toBe(400);
    expect(await noName.text()).toContain('Your name is required.');
    expect((await submitForm(token, { name: 'x'.repeat(161) })).status).toBe(400);
    const full = await draftWithInvite('eve@example.com', 6);
    expect((await submitForm(full.token, { name: 'Eve' })).status).toBe(409);
    for (const bad of ['ldi_nope', 'not-a-token']) {
      expect((await pages.show(new Request(`${config.siteUrl}/invites/${bad}`), bad)).status).toBe(404);
    }
  });

  test('an expired link is refused', async () => {
    const { id, token } = await draftWithInvite('old@example.com');
    await db.sql`update draft_invites set expires_at = now() - interval '1 minute' where draft_id = ${id}`;
    expect((await pages.show(new Request(`${config.siteUrl}/invites/${token}`), token)).status).toBe(410);
  });
});

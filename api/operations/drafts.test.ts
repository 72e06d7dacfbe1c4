// End to end through the HTTP API: fixture websites on loopback, the edge on a real port, and
// the worker running in-process against the same database (graphile-worker, the real jobs,
// the extractive drafter).
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Logger, type Runner } from 'graphile-worker';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { conforms } from '../../test/conforms.ts';
import { FORBIDDEN_FACT, FORBIDDEN_VIDEO, INJECTION, startFixtureSite, type FixtureSite } from '../../test/fixture-site.ts';
import { createApiKey } from '../../sql/auth/api-keys.ts';
import { findOrCreateUser } from '../../sql/auth/users.ts';
import { startWorker } from '../../pipeline/worker.ts';
import { draftsOperations } from './drafts.ts';

const opOutput = (name: string) => draftsOperations.find((o) => o.name === name)!.output;

let app: TestApp;
let worker: Runner;
let site: FixtureSite;
let partner: ReturnType<typeof Bun.serve>;
let partnerHits = 0;
let privateRedirect: FixtureSite;
let rival: FixtureSite;
const keys: Record<'owner' | 'other' | 'reader', string> = { owner: '', other: '', reader: '' }; // reader: the owner's read-only key
let ownerId = '';

beforeAll(async () => {
  partner = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => { partnerHits++; return new Response('<html><body>Partner</body></html>', { headers: { 'content-type': 'text/html' } }); } });
  // Same address, another host name: another site, so the crawler must not follow the link.
  site = startFixtureSite({ externalUrl: `http://localhost:${partner.port}/` });
  privateRedirect = startFixtureSite({ redirectHomeTo: 'http://10.0.0.1/' });
  rival = startFixtureSite({ name: 'Quill Pad' });
  app = await startTestApp({
    env: { ALLOW_LOOPBACK_FETCH: 'true', RATE_LIMIT_WRITES: '100000', RATE_LIMIT_AUTHENTICATED_READS: '100000' },
    prepare: async (sql) => {
      const [p] = await sql`insert into categories (slug, name, position) values ('productivity', 'Productivity', 1) returning id`;
      await sql`insert into categories (slug, name, position, parent_id) values ('note-taking', 'Note Taking', 1, ${p.id}), ('research', 'Research', 2, ${p.id})`;
      await sql`insert into categories (slug, name, position) values ('developer-tools', 'Developer Tools', 2)`;
    },
  });
  const make = async (email: string, scopes: ('account:read' | 'listings:write')[]) => {
    const user = await findOrCreateUser(app.sql, email);
    return { user, key: (await createApiKey(app.sql, { userId: user.id, name: 'test', scopes })).secret };
  };
  const owner = await make('owner@example.com', ['account:read', 'listings:write']);
  ownerId = owner.user.id;
  keys.owner = owner.key;
  keys.other = (await make('other@example.com', ['account:read', 'listings:write'])).key;
  keys.reader = (await createApiKey(app.sql, { userId: owner.user.id, name: 'read only', scopes: ['account:read'] })).secret;
  worker = await startWorker(app.config, app.databaseUrl, { logger: new Logger(() => () => {}) });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await app?.stop();
  for (const s of [site, privateRedirect, rival]) s?.stop();
  partner?.stop(true);
}, 60_000);

type Who = keyof typeof keys;
const call = (method: string, path: string, body?: unknown, who: Who = 'owner', headers: Record<string, string> = {}) =>
  app.json(path, {
    method,
    headers: { authorization: `Bearer ${keys[who]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const patch = (id: string, body: unknown, who: Who = 'owner') => call('PATCH', `/drafts/${id}`, body, who);

/** Polls get_draft until `done` holds (bounded, so a stuck pipeline fails the test instead of hanging). */
async function until(id: string, done: (d: any) => boolean, what: string, ms = 30_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { status, body } = await call('GET', `/drafts/${id}`);
    expect(status).toBe(200);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`draft ${id} never got ${what}: ${JSON.stringify({ status: body.status, failure: body.failure, regenerating: body.regenerating, comparison: body.comparison })}`);
    await Bun.sleep(150);
  }
}
const settled = (d: any) => d.status === 'ready' || d.status === 'failed';

let draftId = '';
let ready: any;

describe('submit_listing and the pipeline', () => {
  test('submit writes the draft (crawling) and the worker makes it ready, every value with evidence', async () => {
    const res = await call('POST', '/drafts', { url: `${site.url}#top` });
    expect(res.status).toBe(201);
    conforms(opOutput('submit_listing'), res.body);
    expect(res.body).toMatchObject({ status: 'crawling', url: site.url, domain: '127.0.0.1', failure: null, listing_id: null });
    expect(res.body.fields.name).toEqual({ value: null, state: null, evidence: [] });
    draftId = res.body.id;

    ready = await until(draftId, settled, 'ready');
    expect(ready.status).toBe('ready');
    conforms(opOutput('get_draft'), ready);
    const f = ready.fields;
    expect(f.name).toMatchObject({ value: 'Lumen Notes', state: 'ai' });
    expect(f.tagline).toMatchObject({ value: 'Private note-taking for research teams', state: 'ai' });
    expect(f.founded_year).toMatchObject({ value: '2019', state: 'ai' });
    expect(f.contact_email).toMatchObject({ value: 'hello@lumen.example', state: 'ai' });
    // Every AI value is quoted from a crawled page of the site.
    const pageUrls = new Set(ready.crawl.pages.map((p: any) => p.url));
    for (const [name, cell] of Object.entries<any>(f)) {
      if (cell.state !== 'ai') continue;
      expect(cell.evidence.length, name).toBeGreaterThan(0);
      for (const e of cell.evidence) expect(pageUrls.has(e.url), `${name}: ${e.url}`).toBe(true);
    }
    expect(ready.faqs.state).toBe('ai');
    expect(ready.faqs.value.map((q: any) => q.question)).toContain('Can I import my notes?');
    expect(ready.founders.value[0]).toMatchObject({ name: 'Ada Lindqvist', title: 'Co-founder and CEO', invited: false });
    expect(ready.company_socials).toMatchObject({ state: 'ai', value: { x: 'https://x.com/lumennotes', github: 'https://github.com/lumennotes' } });
    expect(ready.company_socials.evidence.x.length).toBeGreaterThan(0);
    expect(ready.completeness).toBeGreaterThan(0);
    expect(ready.completeness).toBeLessThan(100);
    expect(ready.drafted_at).not.toBeNull();
  }, 60_000);

  test('facts the site does not state stay blank (not_found) and are listed as missing', () => {
    for (const name of ['demo_video_url', 'stage']) {
      expect(ready.fields[name]).toEqual({ value: null, state: 'not_found', evidence: [] });
      expect(ready.missing).toContain(name);
    }
    expect(ready.story.state).toBe('not_found');
  });

  test('robots.txt is obeyed, hidden text is never used, other sites are not followed', () => {
    const all = JSON.stringify(ready);
    expect(site.hits).toContain('/robots.txt');
    expect(site.hits).not.toContain('/internal/roadmap');
    expect(ready.crawl.skipped).toContainEqual({ url: new URL('/internal/roadmap', site.url).href, reason: 'robots_disallowed' });
    for (const banned of [FORBIDDEN_FACT, 'Reykjavik', FORBIDDEN_VIDEO, INJECTION, 'Napoleon', '1850', 'best app in the world']) {
      expect(all).not.toContain(banned);
    }
    expect(partnerHits).toBe(0);
    expect(ready.crawl.skipped).toContainEqual({ url: `http://localhost:${partner.port}/`, reason: 'off_site' });
    expect(ready.crawl.pages.length).toBeGreaterThanOrEqual(6);
  });

  test('a site that redirects to a private address ends failed with the reason, never stuck', async () => {
    const res = await call('POST', '/drafts', { url: privateRedirect.url });
    expect(res.status).toBe(201);
    const failed = await until(res.body.id, settled, 'failed');
    expect(failed.status).toBe('failed');
    expect(failed.failure.reason).toBe('refused_address');
    expect(failed.failure.detail).toContain('10.0.0.1');
    expect(failed.crawl.pages).toEqual([]);
    conforms(opOutput('get_draft'), failed);
    // A failed draft has nothing to redraft or restore from.
    expect((await patch(failed.id, { regenerate: ['name'] })).status).toBe(409);
    expect((await patch(failed.id, { restore: ['name'] })).status).toBe(409);
  }, 60_000);

  test('submit_listing refuses URLs that are not public websites, and any other key', async () => {
    for (const url of ['ftp://example.com/', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://[fd00::1]/',
      'https://user:pw@example.com/', 'https://printer.local/', '', `https://example.com/${'a'.repeat(2040)}`]) {
      const res = await call('POST', '/drafts', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].field).toBe('url');
    }
    expect((await call('POST', '/drafts', {})).status).toBe(400);
    const extra = await call('POST', '/drafts', { url: site.url, name: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.errors[0]).toMatchObject({ field: 'name', message: 'is not a known field' });
  });

  test('auth: 401 without a credential, 403 without listings:write', async () => {
    const anonymous = await app.json('/drafts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: site.url }) });
    expect(anonymous.status).toBe(401);
    expect((await call('POST', '/drafts', { url: site.url }, 'reader')).status).toBe(403);
    expect((await call('GET', `/drafts/${draftId}`, undefined, 'reader')).status).toBe(200); // account:read reads
    expect((await app.json(`/drafts/${draftId}`)).status).toBe(401);
  });

  test('list_my_drafts: newest first with status and completeness; only your own', async () => {
    const { status, body } = await call('GET', '/drafts?per_page=10');
    expect(status).toBe(200);
    conforms(opOutput('list_my_drafts'), body);
    expect(body.total).toBe(2);
    expect(body.items[1]).toMatchObject({ id: draftId, status: 'ready', name: 'Lumen Notes', completeness: ready.completeness });
    expect(body.items[0].status).toBe('failed');
    const other = await call('GET', '/drafts', undefined, 'other');
    expect(other.body).toMatchObject({ items: [], total: 0 });
    expect((await call('GET', '/drafts?per_page=101')).status).toBe(400);
  });
});

describe('update_draft', () => {
  test('typed values are edited (AI had one) or manual (it had none); null deletes', async () => {
    const res = await patch(draftId, {
      fields: {
        tagline: 'Notes that remember their sources', city: 'Berlin', stage: 'beta', demo_video_url: null,
        categories: ['note taking', 'Research', 'Note Taking'], keywords: ['notes', 'research'],
      },
    });
    expect(res.status).toBe(200);
    conforms(opOutput('update_draft'), res.body);
    const f = res.body.fields;
    expect(f.tagline).toEqual({ value: 'Notes that remember their sources', state: 'edited', evidence: [] });
    expect(f.city).toEqual({ value: 'Berlin', state: 'manual', evidence: [] });
    expect(f.demo_video_url).toEqual({ value: null, state: 'deleted', evidence: [] });
    expect(f.categories.value).toEqual(['Note Taking', 'Research']); // spelled as list_categories does, no duplicates
    expect(f.name.state).toBe('ai'); // untouched
    expect(res.body.completeness).toBeGreaterThan(ready.completeness);
    expect(res.body.missing).not.toContain('city');
  });

  test('sections replace the whole section and carry the same states', async () => {
    const res = await patch(draftId, {
      faqs: [{ question: 'Can I import my notes?', answer: 'Yes, Lumen Notes imports Markdown and Evernote exports.' }, { question: 'Is there an API?', answer: 'Yes.' }],
      founders: [{ name: 'Ada Lindqvist', title: 'Co-founder and CEO', bio: 'Ada led research tooling at a university library for ten years.' }, { name: 'Bo Chen', title: 'CTO' }],
      company_socials: { x: 'https://x.com/lumennotes', youtube: 'https://youtube.com/@lumen' },
      founder_socials: { linkedin: 'https://www.linkedin.com/in/ada' },
      story: { title: 'Why we built Lumen', story: 'Notes kept losing their sources.' },
      milestones: [{ date: '2021-03-15', title: 'Lumen Notes 1.0', url: 'https://lumen.example/blog/1-0' }, { date: '2019-06-01', title: 'Founded' }],
      seo: { title: 'Lumen Notes: research notes with sources', meta: 'Private note-taking for research teams.' },
    });
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d.faqs.state).toBe('edited');
    // An entry sent back unchanged keeps its evidence; a new one has none.
    expect(d.faqs.value[0].evidence.length).toBeGreaterThan(0);
    expect(d.faqs.value[1]).toEqual({ question: 'Is there an API?', answer: 'Yes.', evidence: [] });
    expect(d.founders).toMatchObject({ state: 'edited', value: [{ name: 'Ada Lindqvist' }, { name: 'Bo Chen', title: 'CTO', bio: null }] });
    expect(d.company_socials).toMatchObject({ state: 'edited', value: { x: 'https://x.com/lumennotes', youtube: 'https://youtube.com/@lumen' } });
    expect(d.company_socials.value.github).toBeUndefined();
    expect(d.founder_socials).toMatchObject({ state: 'manual', value: { linkedin: 'https://www.linkedin.com/in/ada' } });
    expect(d.story).toMatchObject({ state: 'manual', value: { title: 'Why we built Lumen', story: 'Notes kept losing their sources.' } });
    expect(d.milestones).toMatchObject({ state: 'manual', value: [{ date: '2021-03-15', url: 'https://lumen.example/blog/1-0' }, { date: '2019-06-01', description: null, url: null }] });
    expect(d.seo).toEqual({ title: 'Lumen Notes: research notes with sources', meta: 'Private note-taking for research teams.' });
    const cleared = await patch(draftId, { founder_socials: {} });
    expect(cleared.body.founder_socials).toEqual({ state: 'deleted', value: {}, evidence: {} });
  });

  test('every bound and every unknown key is a 400 naming the field', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const cases: [unknown, string][] = [
      [{ fields: { tagline: long(501) } }, 'fields.tagline'],
      [{ fields: { description: long(20001) } }, 'fields.description'],
      [{ fields: { features: Array(21).fill('a') } }, 'fields.features'],
      [{ fields: { features: [long(201)] } }, 'fields.features'],
      [{ fields: { founded_year: 2019 } }, 'fields.founded_year'],
      [{ fields: { colour: 'red' } }, 'fields.colour'],
      [{ fields: { categories: ['Gardening'] } }, 'fields.categories.0'],
      [{ lock_fields: ['colour'] }, 'lock_fields.0'],
      [{ lock_fields: Array(21).fill('name') }, 'lock_fields'],
      [{ regenerate: ['name', 'tagline', 'city', 'stage', 'tags', 'usps'] }, 'regenerate'],
      [{ restore: Array(21).fill('name') }, 'restore'],
      [{ faqs: Array(11).fill({ question: 'q', answer: 'a' }) }, 'faqs'],
      [{ faqs: [{ question: long(301), answer: 'a' }] }, 'faqs.0.question'],
      [{ faqs: [{ question: 'q', answer: long(1501) }] }, 'faqs.0.answer'],
      [{ faqs: [{ question: 'q' }] }, 'faqs.0.answer'],
      [{ faqs: [{ question: 'q', answer: 'a', votes: 1 }] }, 'faqs.0.votes'],
      [{ company_socials: { myspace: 'https://myspace.com/x' } }, 'company_socials.myspace'],
      [{ founder_socials: { x: long(501) } }, 'founder_socials.x'],
      [{ founders: Array(7).fill({ name: 'A' }) }, 'founders'],
      [{ founders: [{ name: long(161) }] }, 'founders.0.name'],
      [{ founders: [{ name: 'A', title: long(161) }] }, 'founders.0.title'],
      [{ founders: [{ name: 'A', bio: long(3001) }] }, 'founders.0.bio'],
      [{ founders: [{ title: 'CEO' }] }, 'founders.0.name'],
      [{ story: { story: long(8001) } }, 'story.story'],
      [{ story: { epilogue: 'x' } }, 'story.epilogue'],
      [{ milestones: Array(51).fill({ date: '2020-01-01', title: 't' }) }, 'milestones'],
      [{ milestones: [{ date: '2020-13-01', title: 't' }] }, 'milestones.0.date'],
      [{ milestones: [{ date: '2020-01-01', title: long(201) }] }, 'milestones.0.title'],
      [{ milestones: [{ date: '2020-01-01', title: 't', description: long(2001) }] }, 'milestones.0.description'],
      [{ milestones: [{ date: '2020-01-01', title: 't', url: 'http://insecure.example/' }] }, 'milestones.0.url'],
      [{ milestones: [{ date: '2020-01-01', title: 't', url: `https://e.com/${long(490)}` }] }, 'milestones.0.url'],
      [{ competitor_url: long(2049) }, 'competitor_url'],
      [{ competitor_url: 'http://192.168.0.1/' }, 'competitor_url'],
      [{ seo: { title: long(71) } }, 'seo.title'],
      [{ seo: { meta: long(171) } }, 'seo.meta'],
      [{ seo: { keywords: 'x' } }, 'seo.keywords'],
      [{ colour: 'red' }, 'colour'],
      [{ regenerate: ['name'], fields: { name: 'X' } }, 'regenerate'],
      [{ restore: ['name'], lock_fields: ['name'] }, 'restore'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(draftId, body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.errors.map((e: any) => e.field), JSON.stringify(body).slice(0, 120)).toContain(field);
    }
    // Nothing of the refused calls was applied.
    const { body } = await call('GET', `/drafts/${draftId}`);
    expect(body.fields.tagline.value).toBe('Notes that remember their sources');
  });

  test('restore brings the AI value and its evidence back', async () => {
    const res = await patch(draftId, { restore: ['tagline', 'city', 'faqs'] });
    expect(res.status).toBe(200);
    expect(res.body.fields.tagline).toEqual({ value: ready.fields.tagline.value, state: 'ai', evidence: ready.fields.tagline.evidence });
    expect(res.body.fields.city).toEqual({ value: null, state: 'not_found', evidence: [] });
    expect(res.body.faqs).toEqual(ready.faqs);
  });

  test('regenerate redrafts the named fields from the stored crawl in a job', async () => {
    const fetched = site.hits.length;
    await patch(draftId, { fields: { name: 'Typed name', short_description: null } });
    const res = await patch(draftId, { regenerate: ['name', 'short_description', 'founders'] });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
    expect([...res.body.regenerating].sort()).toEqual(['founders', 'name', 'short_description']);
    const done = await until(draftId, (d) => d.regenerating.length === 0, 'regenerated');
    expect(done.regenerate_error).toBeNull();
    expect(done.fields.name).toEqual(ready.fields.name);
    expect(done.fields.short_description).toEqual(ready.fields.short_description);
    expect(done.founders).toEqual(ready.founders);
    expect(done.fields.city.state).toBe('not_found'); // not named: untouched
    expect(site.hits.length).toBe(fetched); // from the stored pages, not a new crawl
  }, 60_000);

  test('lock_fields makes a field override; a locked field cannot be regenerated', async () => {
    const res = await patch(draftId, { fields: { pricing_model: 'Free' }, lock_fields: ['pricing_model', 'usps'] });
    expect(res.body.fields.pricing_model).toEqual({ value: 'Free', state: 'override', evidence: [] });
    expect(res.body.fields.usps.state).toBe('override');
    const refused = await patch(draftId, { regenerate: ['pricing_model'] });
    expect(refused.status).toBe(409);
    const restored = await patch(draftId, { restore: ['pricing_model'] });
    expect(restored.body.fields.pricing_model).toMatchObject({ value: 'Freemium', state: 'ai' });
  });

  test('competitor_url is read the same way and compared; an empty string clears it', async () => {
    const res = await patch(draftId, { competitor_url: rival.url });
    expect(res.body.competitor_url).toBe(rival.url);
    expect(res.body.comparison).toMatchObject({ status: 'crawling', competitor: { url: rival.url, name: null }, points: [], failure: null });
    const done = await until(draftId, (d) => ['ready', 'failed'].includes(d.comparison?.status), 'compared');
    expect(done.comparison.status).toBe('ready');
    expect(rival.hits).toContain('/');
    expect(rival.hits).not.toContain('/internal/roadmap');
    for (const point of done.comparison.points) expect(point.evidence.length).toBeGreaterThan(0);
    conforms(opOutput('get_draft'), done);
    const cleared = await patch(draftId, { competitor_url: '' });
    expect(cleared.body).toMatchObject({ competitor_url: null, comparison: null });
    const [{ n }] = await app.sql`select count(*)::int as n from draft_pages where draft_id = ${draftId} and kind = 'competitor'`;
    expect(n).toBe(0);
  }, 60_000);

  test('user values may be set while the draft is crawling; the AI draft then skips them', async () => {
    const res = await call('POST', '/drafts', { url: site.url });
    const id = res.body.id;
    const early = await patch(id, { fields: { tagline: 'Typed while crawling' }, lock_fields: ['name'] });
    expect(early.status).toBe(200);
    expect(early.body.fields.tagline).toMatchObject({ state: 'manual' });
    expect((await patch(id, { restore: ['tagline'] })).status).toBe(409); // the AI has not drafted yet
    const done = await until(id, settled, 'ready');
    expect(done.fields.tagline).toEqual({ value: 'Typed while crawling', state: 'manual', evidence: [] });
    expect(done.fields.name).toEqual({ value: null, state: 'override', evidence: [] });
    expect(done.fields.features.state).toBe('ai');
  }, 60_000);
});

describe('submit_draft', () => {
  let listingId = 0;

  test('makes a listing that is not published yet, owned by the caller', async () => {
    const res = await call('POST', `/drafts/${draftId}/submit`);
    expect(res.status).toBe(200);
    conforms(opOutput('submit_draft'), res.body);
    expect(res.body).toMatchObject({ draft_id: draftId, created: true, name: 'Lumen Notes', status: 'draft', plan: 'free', categories: ['Note Taking'] });
    expect(res.body.adjusted).toContainEqual({ field: 'categories', note: expect.stringContaining('free listing') });
    expect(res.body.not_found_on_website).toContain('city');
    listingId = res.body.listing_id;
    const [l] = await app.sql`select owner_user_id::text, status, tagline, stage, founded_year, seo_title, company_id, domain from listings where id = ${listingId}`;
    expect(l).toMatchObject({ owner_user_id: ownerId, status: 'draft', tagline: ready.fields.tagline.value, stage: 'beta', founded_year: 2019, seo_title: 'Lumen Notes: research notes with sources' });
    const [c] = await app.sql`select domain from companies where id = ${l.company_id}`;
    expect(c.domain).toBe('127.0.0.1');
    expect((await app.sql`select count(*)::int as n from listing_faqs where listing_id = ${listingId}`)[0].n).toBe(2);
    const founders = await app.sql`select f.name, lf.position, f.socials from listing_founders lf join founders f on f.id = lf.founder_id where lf.listing_id = ${listingId} order by lf.position`;
    expect(founders.map((f) => f.name)).toEqual(['Ada Lindqvist']);
    expect((await app.sql`select count(*)::int as n from milestones where listing_id = ${listingId}`)[0].n).toBe(2);
    expect((await app.sql`select title from founder_stories where listing_id = ${listingId}`)[0].title).toBe('Why we built Lumen');
    // Not public: a draft listing is on no public page.
    const [{ slug }] = await app.sql`select slug from listings where id = ${listingId}`;
    expect((await app.json(`/listings/${slug}`)).status).toBe(404);
    const draft = await call('GET', `/drafts/${draftId}`);
    expect(draft.body.listing_id).toBe(listingId);
    expect(draft.body.submitted_at).not.toBeNull();
  });

  test('running it again updates the same listing', async () => {
    const res = await call('POST', `/drafts/${draftId}/submit`);
    expect(res.body).toMatchObject({ listing_id: listingId, created: false });
    expect((await app.sql`select count(*)::int as n from listings where owner_user_id = ${ownerId}`)[0].n).toBe(1);
  });

  test('after submission update_draft updates the listing too, in the same call', async () => {
    const res = await patch(draftId, {
      fields: { tagline: 'Research notes that keep their sources', country: 'de', founded_year: 'in 2019' },
      faqs: [{ question: 'Only one?', answer: 'Yes.' }],
      founders: [{ name: 'Ada Lindqvist', title: 'CEO' }, { name: 'Bo Chen', title: 'CTO' }],
    });
    expect(res.status).toBe(200);
    const [l] = await app.sql`select tagline, country, founded_year, not_found_on_website from listings where id = ${listingId}`;
    expect(l).toMatchObject({ tagline: 'Research notes that keep their sources', country: 'DE', founded_year: null });
    const faqs = await app.sql`select question from listing_faqs where listing_id = ${listingId}`;
    expect(faqs.map((f) => f.question)).toEqual(['Only one?']);
    const founders = await app.sql`select f.name, lf.role from listing_founders lf join founders f on f.id = lf.founder_id where lf.listing_id = ${listingId} order by lf.position`;
    expect([...founders]).toEqual([{ name: 'Ada Lindqvist', role: 'CEO' }, { name: 'Bo Chen', role: 'CTO' }]);
    // A restore after submission reaches the listing as well.
    await patch(draftId, { restore: ['tagline'] });
    expect((await app.sql`select tagline from listings where id = ${listingId}`)[0].tagline).toBe(ready.fields.tagline.value);
  });

  test('a regenerate job after submission updates the listing when it finishes', async () => {
    await patch(draftId, { fields: { short_description: 'Typed' } });
    expect((await app.sql`select short_description from listings where id = ${listingId}`)[0].short_description).toBe('Typed');
    await patch(draftId, { regenerate: ['short_description'] });
    await until(draftId, (d) => d.regenerating.length === 0, 'regenerated');
    expect((await app.sql`select short_description from listings where id = ${listingId}`)[0].short_description).toBe(ready.fields.short_description.value);
  }, 60_000);

  test('once the listing is published, an update reaches its public profile at once', async () => {
    const [{ slug }] = await app.sql`update listings set status = 'live', launched_at = now() where id = ${listingId} returning slug`;
    await app.sql`select directory_changed()`;
    expect((await app.json(`/listings/${slug}`)).body.tagline).toBe(ready.fields.tagline.value);
    const before = Number((await app.sql`select last_value from cache_generation`)[0].last_value);
    await patch(draftId, { fields: { tagline: 'Published and edited' } });
    expect(Number((await app.sql`select last_value from cache_generation`)[0].last_value)).toBeGreaterThan(before);
    // The new cache generation reaches the edge by NOTIFY, a moment after the commit.
    let tagline = '';
    for (let i = 0; i < 50 && tagline !== 'Published and edited'; i++) {
      tagline = (await app.json(`/listings/${slug}`)).body.tagline;
      if (tagline !== 'Published and edited') await Bun.sleep(100);
    }
    expect(tagline).toBe('Published and edited');
    await app.sql`update listings set status = 'draft', launched_at = null where id = ${listingId}`;
    await app.sql`select directory_changed()`;
  });

  test('409 while the draft is still crawling or drafting', async () => {
    const res = await call('POST', '/drafts', { url: site.url });
    const submit = await call('POST', `/drafts/${res.body.id}/submit`);
    if (submit.status === 200) throw new Error('the draft was ready before submit_draft ran; crawling takes longer than that');
    expect(submit.status).toBe(409);
    await until(res.body.id, settled, 'ready');
  }, 60_000);
});

describe('invite_cofounder', () => {
  test('ten addresses are invited (mail with a single-use link), the eleventh is refused', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await call('POST', `/drafts/${draftId}/invites`, { email: `cofounder${i}@example.com` });
      expect(res.status).toBe(201);
      conforms(opOutput('invite_cofounder'), res.body);
      expect(res.body).toMatchObject({ draft_id: draftId, email: `cofounder${i}@example.com`, status: 'pending' });
      expect(JSON.stringify(res.body)).not.toContain('ldi_');
    }
    const eleventh = await call('POST', `/drafts/${draftId}/invites`, { email: 'cofounder11@example.com' });
    expect(eleventh.status).toBe(409);
    // The same address again is a fresh link, not another invite.
    expect((await call('POST', `/drafts/${draftId}/invites`, { email: 'COFOUNDER3@example.com' })).status).toBe(201);
    const mail = await app.sql`select to_address, subject, body_text from mail_outbox where kind = 'cofounder_invite' order by id`;
    expect(mail).toHaveLength(11);
    expect(mail[0].body_text).toMatch(new RegExp(`${app.config.siteUrl}/invites/ldi_[A-Za-z0-9_-]{43}`));
    const draft = await call('GET', `/drafts/${draftId}`);
    expect(draft.body.invites).toHaveLength(10);
  });

  test('bad addresses are a 400', async () => {
    for (const email of ['not-an-email', `${'a'.repeat(250)}@example.com`, '']) {
      expect((await call('POST', `/drafts/${draftId}/invites`, { email })).status).toBe(400);
    }
    expect((await call('POST', `/drafts/${draftId}/invites`, { email: 'a@example.com', name: 'A' })).status).toBe(400);
  });
});

describe('another account\'s draft', () => {
  test('is not found on every operation; so is an id that is not a UUID', async () => {
    const ops: [string, string, unknown?][] = [
      ['GET', `/drafts/${draftId}`], ['PATCH', `/drafts/${draftId}`, { fields: { name: 'Mine now' } }],
      ['POST', `/drafts/${draftId}/invites`, { email: 'x@example.com' }], ['POST', `/drafts/${draftId}/submit`],
    ];
    for (const [method, path, body] of ops) {
      const res = await call(method, path, body, 'other');
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      expect((await call('GET', `/drafts/${bad}`)).status).toBe(404);
      expect((await call('PATCH', `/drafts/${bad}`, {})).status).toBe(404);
      expect((await call('POST', `/drafts/${bad}/submit`)).status).toBe(404);
    }
    const { body } = await call('GET', `/drafts/${draftId}`);
    expect(body.fields.name.value).not.toBe('Mine now');
  });
});

describe('MCP', () => {
  test('submit_listing and get_draft work as tools with an API key', async () => {
    const client = new McpClient({ name: 'drafts-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${keys.owner}` } },
    }));
    try {
      const made: any = await client.callTool({ name: 'submit_listing', arguments: { url: site.url } });
      expect(made.isError).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ status: 'crawling', url: site.url });
      const got: any = await client.callTool({ name: 'get_draft', arguments: { id: made.structuredContent.id } });
      expect(got.structuredContent.id).toBe(made.structuredContent.id);
      const bad: any = await client.callTool({ name: 'update_draft', arguments: { id: made.structuredContent.id, fields: { colour: 'red' } } });
      expect(bad.isError).toBe(true);
      await until(made.structuredContent.id, settled, 'ready');
    } finally {
      await client.close();
    }
  }, 60_000);
});

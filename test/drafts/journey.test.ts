// End to end through the HTTP API: submit a fixture website, watch the pipeline make the draft
// ready, edit it every way update_draft allows, then submit it as a listing. The tests run in
// order on one draft.
import { describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { FORBIDDEN_FACT, FORBIDDEN_VIDEO, INJECTION } from '../fixture-site.ts';
import { eventually } from '../eventually.ts';
import { draftsEnv, opOutput, settled } from './env.ts';

const { env, call, patch, until } = draftsEnv({ socket: false });

let draftId = '';
let ready: any;

describe('submit_listing and the pipeline', () => {
  test('submit writes the draft (crawling) and the worker makes it ready, every value with evidence', async () => {
    const res = await call('POST', '/drafts', { url: `${env.site.url}#top` });
    expect(res.status).toBe(201);
    conforms(opOutput('submit_listing'), res.body);
    expect(res.body).toMatchObject({ status: 'crawling', url: env.site.url, domain: '127.0.0.1', failure: null, listing_id: null });
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
    expect(env.site.hits).toContain('/robots.txt');
    expect(env.site.hits).not.toContain('/internal/roadmap');
    expect(ready.crawl.skipped).toContainEqual({ url: new URL('/internal/roadmap', env.site.url).href, reason: 'robots_disallowed' });
    for (const banned of [FORBIDDEN_FACT, 'Reykjavik', FORBIDDEN_VIDEO, INJECTION, 'Napoleon', '1850', 'best app in the world']) {
      expect(all).not.toContain(banned);
    }
    expect(env.partnerHits).toBe(0);
    expect(ready.crawl.skipped).toContainEqual({ url: `http://localhost:${env.partner.port}/`, reason: 'off_site' });
    expect(ready.crawl.pages.length).toBeGreaterThanOrEqual(6);
  });

  test('a site that redirects to a private address ends failed with the reason, never stuck', async () => {
    const res = await call('POST', '/drafts', { url: env.privateRedirect.url });
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
    for (const url of [
      'ftp://example.com/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/',
      'https://user:pw@example.com/',
      'https://printer.local/',
      '',
      `https://example.com/${'a'.repeat(2040)}`,
    ]) {
      const res = await call('POST', '/drafts', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].field).toBe('url');
    }
    expect((await call('POST', '/drafts', {})).status).toBe(400);
    const extra = await call('POST', '/drafts', { url: env.site.url, name: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.errors[0]).toMatchObject({ field: 'name', message: 'is not a known field' });
  });

  test('auth: 401 without a credential, 403 without listings:write', async () => {
    const anonymous = await env.app.json('/drafts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: env.site.url }),
    });
    expect(anonymous.status).toBe(401);
    expect((await call('POST', '/drafts', { url: env.site.url }, 'reader')).status).toBe(403);
    expect((await call('GET', `/drafts/${draftId}`, undefined, 'reader')).status).toBe(200); // account:read reads
    expect((await env.app.json(`/drafts/${draftId}`)).status).toBe(401);
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
        tagline: 'Notes that remember their sources',
        city: 'Berlin',
        stage: 'beta',
        demo_video_url: null,
        categories: ['note-taking', 'Research', 'Note Taking'],
        keywords: ['notes', 'research'],
      },
    });
    expect(res.status).toBe(200);
    conforms(opOutput('update_draft'), res.body);
    const f = res.body.fields;
    expect(f.tagline).toEqual({ value: 'Notes that remember their sources', state: 'edited', evidence: [] });
    expect(f.city).toEqual({ value: 'Berlin', state: 'manual', evidence: [] });
    expect(f.demo_video_url).toEqual({ value: null, state: 'deleted', evidence: [] });
    // A slug or a name, stored as list_categories spells the name, no duplicates.
    expect(f.categories.value).toEqual(['Note Taking', 'Research']);
    expect(f.name.state).toBe('ai'); // untouched
    expect(res.body.completeness).toBeGreaterThan(ready.completeness);
    expect(res.body.missing).not.toContain('city');
  });

  test('sections replace the whole section and carry the same states', async () => {
    const res = await patch(draftId, {
      faqs: [
        { question: 'Can I import my notes?', answer: 'Yes, Lumen Notes imports Markdown and Evernote exports.' },
        { question: 'Is there an API?', answer: 'Yes.' },
      ],
      founders: [
        { name: 'Ada Lindqvist', title: 'Co-founder and CEO', bio: 'Ada led research tooling at a university library for ten years.' },
        { name: 'Bo Chen', title: 'CTO' },
      ],
      company_socials: { x: 'https://x.com/lumennotes', youtube: 'https://youtube.com/@lumen' },
      founder_socials: { linkedin: 'https://www.linkedin.com/in/ada' },
      story: { title: 'Why we built Lumen', story: 'Notes kept losing their sources.' },
      milestones: [
        { date: '2021-03-15', title: 'Lumen Notes 1.0', url: 'https://lumen.example/blog/1-0' },
        { date: '2019-06-01', title: 'Founded' },
      ],
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
    expect(d.milestones).toMatchObject({
      state: 'manual',
      value: [
        { date: '2021-03-15', url: 'https://lumen.example/blog/1-0' },
        { date: '2019-06-01', description: null, url: null },
      ],
    });
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
      [{ fields: { categories: ['Gardening'] } }, 'fields.categories[0]'],
      [{ lock_fields: ['colour'] }, 'lock_fields[0]'],
      [{ lock_fields: Array(21).fill('name') }, 'lock_fields'],
      [{ regenerate: ['name', 'tagline', 'city', 'stage', 'tags', 'usps'] }, 'regenerate'],
      [{ restore: Array(21).fill('name') }, 'restore'],
      [{ faqs: Array(11).fill({ question: 'q', answer: 'a' }) }, 'faqs'],
      [{ faqs: [{ question: long(301), answer: 'a' }] }, 'faqs[0].question'],
      [{ faqs: [{ question: 'q', answer: long(1501) }] }, 'faqs[0].answer'],
      [{ faqs: [{ question: 'q' }] }, 'faqs[0].answer'],
      [{ faqs: [{ question: 'q', answer: 'a', votes: 1 }] }, 'faqs[0].votes'],
      [{ company_socials: { myspace: 'https://myspace.com/x' } }, 'company_socials.myspace'],
      [{ founder_socials: { x: long(501) } }, 'founder_socials.x'],
      [{ founders: Array(7).fill({ name: 'A' }) }, 'founders'],
      [{ founders: [{ name: long(161) }] }, 'founders[0].name'],
      [{ founders: [{ name: 'A', title: long(161) }] }, 'founders[0].title'],
      [{ founders: [{ name: 'A', bio: long(3001) }] }, 'founders[0].bio'],
      [{ founders: [{ title: 'CEO' }] }, 'founders[0].name'],
      [{ story: { story: long(8001) } }, 'story.story'],
      [{ story: { epilogue: 'x' } }, 'story.epilogue'],
      [{ milestones: Array(51).fill({ date: '2020-01-01', title: 't' }) }, 'milestones'],
      [{ milestones: [{ date: '2020-13-01', title: 't' }] }, 'milestones[0].date'],
      [{ milestones: [{ date: '2020-01-01', title: long(201) }] }, 'milestones[0].title'],
      [{ milestones: [{ date: '2020-01-01', title: 't', description: long(2001) }] }, 'milestones[0].description'],
      [{ milestones: [{ date: '2020-01-01', title: 't', url: 'http://insecure.example/' }] }, 'milestones[0].url'],
      [{ milestones: [{ date: '2020-01-01', title: 't', url: `https://e.com/${long(490)}` }] }, 'milestones[0].url'],
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
      expect(
        res.body.errors.map((e: any) => e.field),
        JSON.stringify(body).slice(0, 120),
      ).toContain(field);
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
    const fetched = env.site.hits.length;
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
    expect(env.site.hits.length).toBe(fetched); // from the stored pages, not a new crawl
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
    const res = await patch(draftId, { competitor_url: env.rival.url });
    expect(res.body.competitor_url).toBe(env.rival.url);
    expect(res.body.comparison).toMatchObject({ status: 'crawling', competitor: { url: env.rival.url, name: null }, points: [], failure: null });
    const done = await until(draftId, (d) => ['ready', 'failed'].includes(d.comparison?.status), 'compared');
    expect(done.comparison.status).toBe('ready');
    expect(env.rival.hits).toContain('/');
    expect(env.rival.hits).not.toContain('/internal/roadmap');
    for (const point of done.comparison.points) expect(point.evidence.length).toBeGreaterThan(0);
    conforms(opOutput('get_draft'), done);
    const cleared = await patch(draftId, { competitor_url: '' });
    expect(cleared.body).toMatchObject({ competitor_url: null, comparison: null });
    const [{ n }] = await env.app.sql`select count(*)::int as n from draft_pages where draft_id = ${draftId} and kind = 'competitor'`;
    expect(n).toBe(0);
  }, 60_000);

  test('user values may be set while the draft is crawling; the AI draft then skips them', async () => {
    const res = await call('POST', '/drafts', { url: env.site.url });
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
    const [l] = await env.app
      .sql`select owner_user_id::text, status, tagline, stage, founded_year, seo_title, company_id, domain from listings where id = ${listingId}`;
    expect(l).toMatchObject({
      owner_user_id: env.ownerId,
      status: 'draft',
      tagline: ready.fields.tagline.value,
      stage: 'beta',
      founded_year: 2019,
      seo_title: 'Lumen Notes: research notes with sources',
    });
    const [c] = await env.app.sql`select domain from companies where id = ${l.company_id}`;
    expect(c.domain).toBe('127.0.0.1');
    expect((await env.app.sql`select count(*)::int as n from listing_faqs where listing_id = ${listingId}`)[0].n).toBe(2);
    const founders = await env.app
      .sql`select f.name, lf.position, f.socials from listing_founders lf join founders f on f.id = lf.founder_id where lf.listing_id = ${listingId} order by lf.position`;
    expect(founders.map((f) => f.name)).toEqual(['Ada Lindqvist']);
    expect((await env.app.sql`select count(*)::int as n from milestones where listing_id = ${listingId}`)[0].n).toBe(2);
    expect((await env.app.sql`select title from founder_stories where listing_id = ${listingId}`)[0].title).toBe('Why we built Lumen');
    // Not public: a draft listing is on no public page.
    const [{ slug }] = await env.app.sql`select slug from listings where id = ${listingId}`;
    expect((await env.app.json(`/listings/${slug}`)).status).toBe(404);
    const draft = await call('GET', `/drafts/${draftId}`);
    expect(draft.body.listing_id).toBe(listingId);
    expect(draft.body.submitted_at).not.toBeNull();
  });

  test('running it again updates the same listing', async () => {
    const res = await call('POST', `/drafts/${draftId}/submit`);
    expect(res.body).toMatchObject({ listing_id: listingId, created: false });
    expect((await env.app.sql`select count(*)::int as n from listings where owner_user_id = ${env.ownerId}`)[0].n).toBe(1);
  });

  test('after submission update_draft updates the listing too, in the same call', async () => {
    const res = await patch(draftId, {
      fields: { tagline: 'Research notes that keep their sources', country: 'de', founded_year: 'in 2019' },
      faqs: [{ question: 'Only one?', answer: 'Yes.' }],
      founders: [
        { name: 'Ada Lindqvist', title: 'CEO' },
        { name: 'Bo Chen', title: 'CTO' },
      ],
    });
    expect(res.status).toBe(200);
    const [l] = await env.app.sql`select tagline, country, founded_year, not_found_on_website from listings where id = ${listingId}`;
    expect(l).toMatchObject({ tagline: 'Research notes that keep their sources', country: 'DE', founded_year: null });
    const faqs = await env.app.sql`select question from listing_faqs where listing_id = ${listingId}`;
    expect(faqs.map((f) => f.question)).toEqual(['Only one?']);
    const founders = await env.app
      .sql`select f.name, lf.role from listing_founders lf join founders f on f.id = lf.founder_id where lf.listing_id = ${listingId} order by lf.position`;
    expect([...founders]).toEqual([
      { name: 'Ada Lindqvist', role: 'CEO' },
      { name: 'Bo Chen', role: 'CTO' },
    ]);
    // A restore after submission reaches the listing as well.
    await patch(draftId, { restore: ['tagline'] });
    expect((await env.app.sql`select tagline from listings where id = ${listingId}`)[0].tagline).toBe(ready.fields.tagline.value);
  });

  test('a regenerate job after submission updates the listing when it finishes', async () => {
    await patch(draftId, { fields: { short_description: 'Typed' } });
    expect((await env.app.sql`select short_description from listings where id = ${listingId}`)[0].short_description).toBe('Typed');
    await patch(draftId, { regenerate: ['short_description'] });
    await until(draftId, (d) => d.regenerating.length === 0, 'regenerated');
    expect((await env.app.sql`select short_description from listings where id = ${listingId}`)[0].short_description).toBe(ready.fields.short_description.value);
  }, 60_000);

  test('once the listing is published, an update reaches its public profile at once', async () => {
    const [{ slug }] = await env.app.sql`update listings set status = 'live', launched_at = now() where id = ${listingId} returning slug`;
    await env.app.sql`select directory_changed()`;
    expect((await env.app.json(`/listings/${slug}`)).body.tagline).toBe(ready.fields.tagline.value);
    const before = Number((await env.app.sql`select last_value from cache_generation`)[0].last_value);
    await patch(draftId, { fields: { tagline: 'Published and edited' } });
    expect(Number((await env.app.sql`select last_value from cache_generation`)[0].last_value)).toBeGreaterThan(before);
    // The new cache generation reaches the edge by NOTIFY, a moment after the commit.
    const tagline = await eventually(
      async () => (await env.app.json(`/listings/${slug}`)).body.tagline,
      (t) => t === 'Published and edited',
      { tries: 50, everyMs: 100 },
    );
    expect(tagline).toBe('Published and edited');
    await env.app.sql`update listings set status = 'draft', launched_at = null where id = ${listingId}`;
    await env.app.sql`select directory_changed()`;
  });

  test('409 while the draft is still crawling or drafting', async () => {
    const res = await call('POST', '/drafts', { url: env.site.url });
    const submit = await call('POST', `/drafts/${res.body.id}/submit`);
    if (submit.status === 200) throw new Error('the draft was ready before submit_draft ran; crawling takes longer than that');
    expect(submit.status).toBe(409);
    await until(res.body.id, settled, 'ready');
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Sql } from '../../sql/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeCategory, makeListing, makeUser, makeVote } from '../../test/builders.ts';

let app: TestApp;
const user = async (sql: Sql) => Number((await makeUser(sql)).id);

async function listing(
  sql: Sql,
  site: number,
  slug: string,
  o: { status?: string; category?: number | null; votes?: number; extra?: Record<string, unknown> } = {},
) {
  const l = await makeListing(sql, { siteId: site, slug, name: `Listing ${slug}`, status: o.status, categoryId: o.category, columns: o.extra });
  for (let i = 0; i < (o.votes ?? 0); i++) await makeVote(sql, l.id, await user(sql));
  return { id: l.id, company_id: l.companyId };
}

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const cat = async (slug: string, parent: number | null = null, position = 0) =>
        (await makeCategory(sql, { slug, name: 'Cat ' + slug, parentId: parent, position })).id;
      const sales = await cat('sales');
      const crm = await cat('crm', sales);
      const email = await cat('email', null, 1);
      const analytics = await cat('analytics', null, 2);
      const owner = await user(sql);

      const acme = await listing(sql, siteId, 'acme-crm', {
        category: crm,
        votes: 2,
        extra: {
          owner_user_id: owner,
          tagline: 'The CRM',
          short_description: 'Short',
          description: 'Long description',
          headline: 'Headline',
          summary: 'Summary',
          features: ['Pipelines', 'Reports'],
          usps: ['Fast'],
          keywords: ['crm'],
          pricing_model: 'freemium',
          pricing_summary: 'Free up to 3 seats',
          stage: 'growth',
          country: 'NL',
          city: 'Utrecht',
          founded_year: 2019,
          demo_video_url: 'https://video.test/acme',
          contact_email: 'hi@acme-crm.test',
          logo_url: 'https://acme-crm.test/logo.png',
          plan: 'paid',
          launched_at: new Date('2024-03-05T10:00:00Z'),
          launch_week: '2024-03-04',
          unlocked_sections: ['story', 'milestones'],
          not_found_on_website: ['founded_year'],
        },
      });
      await sql`insert into listing_categories (listing_id, category_id) values (${acme.id}, ${analytics}), (${acme.id}, ${email})`;
      const f1 = (
        await sql`insert into founders (slug, name, title, socials) values ('ann', 'Ann', 'CEO', ${sql.json({ x: 'https://x.test/ann' })}) returning id`
      )[0].id;
      const f2 = (await sql`insert into founders (slug, name, title) values ('bob', 'Bob', 'Engineer') returning id`)[0].id;
      await sql`insert into listing_founders (listing_id, founder_id, role, position) values (${acme.id}, ${f2}, 'CTO', 1), (${acme.id}, ${f1}, null, 0)`;
      await sql`insert into listing_faqs (listing_id, position, question, answer) values (${acme.id}, 1, 'Second?', 'B'), (${acme.id}, 0, 'First?', 'A')`;
      await sql`insert into listing_socials (listing_id, platform, url) values (${acme.id}, 'x', 'https://x.test/acme'), (${acme.id}, 'github', 'https://github.test/acme')`;
      for (let i = 1; i <= 6; i++) {
        await sql`insert into listing_updates (listing_id, title, body, created_at) values (${acme.id}, ${'Update ' + i}, 'Body', now() - make_interval(days => ${10 - i}))`;
      }
      // Genuine reviews 5, 4, 3 count; the owner's and a flagged one do not.
      for (const r of [5, 4, 3]) await sql`insert into reviews (listing_id, user_id, rating) values (${acme.id}, ${await user(sql)}, ${r})`;
      await sql`insert into reviews (listing_id, user_id, rating) values (${acme.id}, ${owner}, 1)`;
      await sql`insert into reviews (listing_id, user_id, rating, flagged) values (${acme.id}, ${await user(sql)}, 1, true)`;
      // 14 weekly Domain Rating points ending 2024-06-03 at 40; 28 days earlier it was 36.
      await sql`insert into domain_ratings (company_id, measured_on, rating)
                select ${acme.company_id}, date '2024-06-03' - 7 * i, 40 - i from generate_series(0, 13) i`;
      await sql`insert into founder_stories (listing_id, title, story) values (${acme.id}, 'How we started', 'Once upon a time')`;
      await sql`insert into milestones (listing_id, date, title) values (${acme.id}, '2023-01-01', 'Founded'), (${acme.id}, '2024-01-01', 'Series A')`;
      await sql`insert into listing_media (listing_id, kind, url) values (${acme.id}, 'image', 'https://acme-crm.test/shot.png')`;

      const plain = await listing(sql, siteId, 'plain', { category: email });
      await sql`insert into founder_stories (listing_id, title) values (${plain.id}, 'Hidden')`;
      await sql`insert into milestones (listing_id, date, title) values (${plain.id}, '2023-01-01', 'Hidden')`;
      await sql`insert into listing_media (listing_id, kind, url) values (${plain.id}, 'image', 'https://plain.test/x.png')`;
      await listing(sql, siteId, 'media-only', { extra: { unlocked_sections: ['media'] } });
      await listing(sql, siteId, 'draft-one', { status: 'draft', category: crm });
      await listing(sql, siteId, 'soon', { status: 'scheduled', category: crm });
      await listing(sql, other.id, 'elsewhere', { category: crm });

      // Alternatives of acme-crm: approved ones first, then same primary category, most voted first.
      const approvedHigh = await listing(sql, siteId, 'alt-high', { category: analytics, votes: 3 });
      const approvedLow = await listing(sql, siteId, 'alt-low', { category: email, votes: 1 });
      const approvedSame = await listing(sql, siteId, 'crm-approved', { category: crm, votes: 0 });
      const notApproved = await listing(sql, siteId, 'not-approved', { category: analytics, votes: 9 });
      const approvedDraft = await listing(sql, siteId, 'alt-draft', { status: 'draft', category: crm });
      const approvedOther = await listing(sql, other.id, 'alt-other', { category: crm });
      await listing(sql, siteId, 'crm-two', { category: crm, votes: 5 });
      await listing(sql, siteId, 'crm-three', { category: crm, votes: 2 });
      await listing(sql, siteId, 'sales-top', { category: sales, votes: 7 }); // the parent category is not the same category
      for (const [alt, approved] of [
        [approvedHigh, true],
        [approvedLow, true],
        [approvedSame, true],
        [notApproved, false],
        [approvedDraft, true],
        [approvedOther, true],
      ] as const) {
        await sql`insert into listing_alternatives (listing_id, alternative_id, approved) values (${acme.id}, ${alt.id}, ${approved})`;
      }
    },
  });
}, 60_000);
afterAll(() => app?.stop(), 60_000);

describe('get_listing', () => {
  test('returns the public profile', async () => {
    const { status, body } = await app.json('/listings/acme-crm');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      slug: 'acme-crm',
      name: 'Listing acme-crm',
      url: 'https://acme-crm.test',
      tagline: 'The CRM',
      short_description: 'Short',
      description: 'Long description',
      headline: 'Headline',
      summary: 'Summary',
      features: ['Pipelines', 'Reports'],
      usps: ['Fast'],
      keywords: ['crm'],
      pricing: { model: 'freemium', summary: 'Free up to 3 seats' },
      stage: 'growth',
      country: 'NL',
      city: 'Utrecht',
      founded_year: 2019,
      demo_video_url: 'https://video.test/acme',
      contact_email: 'hi@acme-crm.test',
      logo_url: 'https://acme-crm.test/logo.png',
      plan: 'paid',
      launch_week: '2024-03-04',
      launched_at: '2024-03-05T10:00:00Z',
      not_found_on_website: ['founded_year'],
      votes: 2,
      follows: 0,
      views: 0,
      profile_url: `${app.url}/listings/acme-crm`,
      links: {
        website: 'https://acme-crm.test',
        profile: `${app.url}/listings/acme-crm`,
        badges: `${app.api}/listings/acme-crm/badges`,
        alternatives: `${app.api}/listings/acme-crm/alternatives`,
      },
    });
    expect(body.categories).toEqual([
      { slug: 'crm', name: 'Cat crm', primary: true, parent: { slug: 'sales', name: 'Cat sales' } },
      { slug: 'email', name: 'Cat email', primary: false, parent: null },
      { slug: 'analytics', name: 'Cat analytics', primary: false, parent: null },
    ]);
    expect(body.founders).toEqual([
      { slug: 'ann', name: 'Ann', title: 'CEO', avatar_url: null, socials: { x: 'https://x.test/ann' }, primary: true },
      { slug: 'bob', name: 'Bob', title: 'CTO', avatar_url: null, socials: {}, primary: false },
    ]);
    expect(body.faqs).toEqual([
      { question: 'First?', answer: 'A' },
      { question: 'Second?', answer: 'B' },
    ]);
    expect(body.socials).toEqual({ github: 'https://github.test/acme', x: 'https://x.test/acme' });
    expect(body.latest_updates.map((u: any) => u.title)).toEqual(['Update 6', 'Update 5', 'Update 4', 'Update 3', 'Update 2']);
    expect(body.latest_updates[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('the community rating counts genuine reviews only', async () => {
    const { body } = await app.json('/listings/acme-crm');
    expect(body.community_rating).toEqual({ average: 4, count: 3 });
    expect((await app.json('/listings/plain')).body.community_rating).toEqual({ average: null, count: 0 });
  });

  test('Domain Rating with trend and the 12 latest points, oldest first', async () => {
    const { body } = await app.json('/listings/acme-crm');
    expect(body.domain_rating).toMatchObject({ rating: 40, measured_on: '2024-06-03', trend: 4 });
    expect(body.domain_rating.history).toHaveLength(12);
    expect(body.domain_rating.history[0]).toEqual({ measured_on: '2024-03-18', rating: 29 });
    expect(body.domain_rating.history[11]).toEqual({ measured_on: '2024-06-03', rating: 40 });
    expect((await app.json('/listings/plain')).body.domain_rating).toBeNull();
  });

  test('story, milestones and media only when unlocked', async () => {
    const acme = (await app.json('/listings/acme-crm')).body;
    expect(acme.story).toMatchObject({ title: 'How we started', story: 'Once upon a time', why_started: null });
    expect(acme.milestones.map((m: any) => [m.date, m.title])).toEqual([
      ['2024-01-01', 'Series A'],
      ['2023-01-01', 'Founded'],
    ]);
    expect(acme.media).toBeNull(); // has media rows, but media is not unlocked
    const plain = (await app.json('/listings/plain')).body;
    expect([plain.story, plain.milestones, plain.media]).toEqual([null, null, null]);
    const mediaOnly = (await app.json('/listings/media-only')).body;
    expect([mediaOnly.story, mediaOnly.milestones, mediaOnly.media]).toEqual([null, null, []]);
  });

  test("404 for unknown, draft, scheduled and other sites' listings, and malformed slugs", async () => {
    for (const slug of ['nope', 'draft-one', 'soon', 'elsewhere', 'Bad_Slug']) {
      const res = await app.get(`/listings/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});

describe('get_alternatives', () => {
  test('approved alternatives first, then the same primary category, most voted first', async () => {
    const { status, body } = await app.json('/listings/acme-crm/alternatives');
    expect(status).toBe(200);
    expect(body.items.map((i: any) => [i.slug, i.approved])).toEqual([
      ['alt-high', true],
      ['alt-low', true],
      ['crm-approved', true],
      ['crm-two', false],
      ['crm-three', false],
    ]);
    expect(body).toMatchObject({ total: 5, page: 1, per_page: 20, has_more: false });
    expect(body.items[0]).toMatchObject({ name: 'Listing alt-high', url: 'https://alt-high.test', votes: 3, status: 'live' });
  });

  test('pages over both groups', async () => {
    const { body } = await app.json('/listings/acme-crm/alternatives?page=2&per_page=2');
    expect(body.items.map((i: any) => i.slug)).toEqual(['crm-approved', 'crm-two']);
    expect(body).toMatchObject({ total: 5, has_more: true });
    expect((await app.json('/listings/acme-crm/alternatives?page=9')).body).toMatchObject({ items: [], total: 5 });
  });

  test('total counts the category as it is now, before any refresh', async () => {
    await app.sql`update listings set status = 'hidden' where slug = 'crm-three'`;
    try {
      // Another page size each time: a URL not read before, so not an answer cached earlier.
      expect((await app.json('/listings/acme-crm/alternatives?per_page=19')).body).toMatchObject({ total: 4 });
      await app.sql`update listings set primary_category_id = (select primary_category_id from listings where slug = 'acme-crm') where slug = 'not-approved'`;
      expect((await app.json('/listings/acme-crm/alternatives?per_page=18')).body).toMatchObject({ total: 5 });
    } finally {
      await app.sql`update listings set status = 'live' where slug = 'crm-three'`;
      await app.sql`update listings set primary_category_id = (select primary_category_id from listings where slug = 'alt-high') where slug = 'not-approved'`;
    }
    expect((await app.json('/listings/acme-crm/alternatives?per_page=17')).body).toMatchObject({ total: 5 });
  });

  test('a listing without approved alternatives lists its category', async () => {
    const { body } = await app.json('/listings/crm-two/alternatives');
    expect(body.items.map((i: any) => [i.slug, i.approved])).toEqual([
      ['acme-crm', false],
      ['crm-three', false],
      ['crm-approved', false], // a tie on votes: the launched one first
    ]);
  });

  test('404 for unknown or non-live listings; 400 for bad paging', async () => {
    for (const slug of ['nope', 'draft-one', 'elsewhere']) expect((await app.get(`/listings/${slug}/alternatives`)).status).toBe(404);
    for (const qs of ['page=0', 'page=1001', 'per_page=0', 'per_page=101']) {
      const { status, body } = await app.json(`/listings/acme-crm/alternatives?${qs}`);
      expect(status).toBe(400);
      expect(body.errors[0].field).toBe(qs.split('=')[0]);
    }
  });
});

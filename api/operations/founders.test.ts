import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeCompany, makeListing, makeUser } from '../../test/builders.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const co = await makeCompany(sql, { name: 'Acme', domain: 'acme.test' });
      const listing = async (slug: string, site: number, status: string, launchedAt: string | null, unlocked: string[] = []) =>
        (
          await makeListing(sql, {
            siteId: site,
            companyId: co.id,
            slug,
            name: 'Listing ' + slug,
            status,
            columns: { launched_at: launchedAt, unlocked_sections: unlocked },
          })
        ).id;
      const l1 = await listing('l1', siteId, 'live', '2024-01-01T00:00:00Z', ['story']);
      const l2 = await listing('l2', siteId, 'live', '2025-01-01T00:00:00Z');
      const l3 = await listing('l3', siteId, 'scheduled', null, ['story']);
      const l5 = await listing('l5', other.id, 'live', '2025-01-01T00:00:00Z');

      const u = await makeUser(sql, { email: 'ada@example.test', name: 'Ada' });
      const founder = async (
        slug: string,
        name: string,
        country: string | null,
        extra: { user?: unknown; title?: string; bio?: string; socials?: object } = {},
      ) => {
        const [f] = await sql`insert into founders (slug, name, country, user_id, title, bio, avatar_url, socials)
                              values (${slug}, ${name}, ${country}, ${(extra.user ?? null) as never}, ${extra.title ?? null}, ${extra.bio ?? null},
                                      ${'https://img.test/' + slug + '.png'}, ${sql.json((extra.socials ?? {}) as never)}) returning id`;
        return f.id;
      };
      const ada = await founder('ada', 'Ada Lovelace', 'GB', {
        user: u.id,
        title: 'CEO',
        bio: 'Wrote the first program.',
        socials: { x: 'https://x.com/ada', github: 'https://github.com/ada' },
      });
      const grace = await founder('grace', 'Grace Hopper', 'US');
      const jane = await founder('jane', 'Jane Smith', 'US');
      const hiddenDraft = await founder('hidden-draft', 'Hidden Draft', 'US');
      const hiddenOther = await founder('hidden-other', 'Hidden Other', 'GB');
      await founder('lonely', 'Lonely Person', 'US');

      const link = async (listingId: unknown, founderId: unknown, role: string | null) =>
        sql`insert into listing_founders (listing_id, founder_id, role) values (${listingId as never}, ${founderId as never}, ${role})`;
      await link(l1, ada, 'CEO');
      await link(l2, ada, 'Advisor');
      await link(l3, ada, 'CEO'); // scheduled: not shown, not counted
      await link(l2, grace, null);
      await link(l1, jane, 'CTO');
      await link(l3, hiddenDraft, null);
      await link(l5, hiddenOther, null);

      await sql`insert into founder_stories (listing_id, title, story, lessons) values (${l1}, 'How it began', 'Once upon a time.', 'Ship early.')`;
      await sql`insert into founder_stories (listing_id, title, story) values (${l2}, 'Locked story', 'Not unlocked.')`;
      await sql`insert into founder_stories (listing_id, title, story) values (${l3}, 'Draft story', 'Not live.')`;

      const [q1] = await sql`insert into interview_questions (position, question) values (2, 'Why did you start?') returning id`;
      const [q2] = await sql`insert into interview_questions (position, question) values (1, 'What do you build?') returning id`;
      const [q3] = await sql`insert into interview_questions (position, question, active) values (0, 'Retired question', false) returning id`;
      for (const [q, a] of [
        [q1.id, 'Curiosity.'],
        [q2.id, 'Engines.'],
        [q3.id, 'Old answer.'],
      ]) {
        await sql`insert into interview_answers (user_id, question_id, answer) values (${u.id}, ${q}, ${a})`;
      }
    },
  });
}, 60_000); // a loaded machine can take a while to boot the test database
afterAll(() => app?.stop(), 60_000);

const slugs = (body: any) => body.items.map((f: any) => f.slug);

describe('list_founders', () => {
  test('lists only founders of live listings of this site, by name, with company counts', async () => {
    const { status, body } = await app.json('/founders');
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 1, per_page: 20, total: 3, has_more: false });
    expect(body.items).toEqual([
      { slug: 'ada', name: 'Ada Lovelace', title: 'CEO', country: 'GB', avatar_url: 'https://img.test/ada.png', companies: 2 },
      { slug: 'grace', name: 'Grace Hopper', title: null, country: 'US', avatar_url: 'https://img.test/grace.png', companies: 1 },
      { slug: 'jane', name: 'Jane Smith', title: null, country: 'US', avatar_url: 'https://img.test/jane.png', companies: 1 },
    ]);
  });

  test('q matches part of a name in any case, and tolerates typos', async () => {
    expect(slugs((await app.json('/founders?q=LOVE')).body)).toEqual(['ada']);
    expect(slugs((await app.json('/founders?q=smiht')).body)).toEqual(['jane']);
    expect(slugs((await app.json('/founders?q=grace%20hoper')).body)).toEqual(['grace']);
    const none = await app.json('/founders?q=zzzz');
    expect(none.body).toMatchObject({ items: [], total: 0 });
    // hidden founders never match, even by exact name
    expect(slugs((await app.json('/founders?q=Hidden')).body)).toEqual([]);
    expect(slugs((await app.json('/founders?q=')).body)).toEqual(['ada', 'grace', 'jane']);
  });

  test('q is at most 120 characters', async () => {
    expect((await app.json(`/founders?q=${'a'.repeat(120)}`)).status).toBe(200);
    const res = await app.json(`/founders?q=${'a'.repeat(121)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'q', in: 'query' });
  });

  test('country filters in any case and must be two letters', async () => {
    expect(slugs((await app.json('/founders?country=us')).body)).toEqual(['grace', 'jane']);
    expect(slugs((await app.json('/founders?country=GB')).body)).toEqual(['ada']);
    expect(slugs((await app.json('/founders?country=FR')).body)).toEqual([]);
    expect(slugs((await app.json('/founders?country=us&q=jane')).body)).toEqual(['jane']);
    for (const bad of ['USA', 'u', '1a', 'u%20']) {
      const res = await app.json(`/founders?country=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('country');
    }
  });

  test('pages and rejects paging out of bounds', async () => {
    const p2 = await app.json('/founders?per_page=2&page=2');
    expect(p2.body).toMatchObject({ page: 2, per_page: 2, total: 3, has_more: false });
    expect(slugs(p2.body)).toEqual(['jane']);
    expect((await app.json('/founders?per_page=2')).body.has_more).toBe(true);
    expect((await app.json('/founders?page=1000&per_page=100')).body).toMatchObject({ items: [], total: 3 });
    for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101']) {
      const res = await app.json(`/founders?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe(q.split('=')[0]);
    }
    expect((await app.json('/founders?sort=name')).status).toBe(400);
  });
});

describe('get_founder', () => {
  test('returns bio, socials, live companies with roles, published stories and interview answers', async () => {
    const { status, body } = await app.json('/founders/ada');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      slug: 'ada',
      name: 'Ada Lovelace',
      title: 'CEO',
      bio: 'Wrote the first program.',
      country: 'GB',
      avatar_url: 'https://img.test/ada.png',
      socials: { github: 'https://github.com/ada', x: 'https://x.com/ada' },
    });
    // newest launch first; the scheduled listing l3 is not shown
    expect(body.companies.map((c: any) => [c.slug, c.role])).toEqual([
      ['l2', 'Advisor'],
      ['l1', 'CEO'],
    ]);
    expect(body.companies[0]).toMatchObject({ name: 'Listing l2', url: 'https://l2.test', status: 'live', votes: 0 });
    // only l1 has the story section unlocked
    expect(body.stories).toEqual([
      {
        listing_slug: 'l1',
        listing_name: 'Listing l1',
        title: 'How it began',
        sections: {
          story: 'Once upon a time.',
          why_started: null,
          problem: null,
          journey: null,
          challenges: null,
          achievements: null,
          lessons: 'Ship early.',
          whats_next: null,
        },
      },
    ]);
    // active questions only, in question order
    expect(body.interview.map((a: any) => [a.question, a.answer])).toEqual([
      ['What do you build?', 'Engines.'],
      ['Why did you start?', 'Curiosity.'],
    ]);
    expect(typeof body.interview[0].question_id).toBe('number');
  });

  test('a founder without an account has no interview, and empty socials', async () => {
    const { status, body } = await app.json('/founders/grace');
    expect(status).toBe(200);
    expect(body).toMatchObject({ interview: [], stories: [], socials: {}, bio: null });
    expect(body.companies.map((c: any) => [c.slug, c.role])).toEqual([['l2', null]]);
  });

  test('404 for unknown, malformed and non-public founders', async () => {
    for (const slug of ['nobody', 'hidden-draft', 'hidden-other', 'lonely', 'Ada_L']) {
      const res = await app.json(`/founders/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  test('takes no query parameters', async () => {
    expect((await app.json('/founders/ada?page=1')).status).toBe(400);
  });
});

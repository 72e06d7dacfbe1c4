import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeCategory, makeListing } from '../../test/builders.ts';
import { freshDatabase } from '../../test/db.ts';
import { settles } from '../../test/eventually.ts';
import type { Sql } from '../db.ts';
import { ensureSite } from '../site.ts';
import { type ListingProfileRow, profileJson, profileOf, profileParts, storeDocument } from './listing-profile.ts';

// A listing's profile is read from its stored document (migration 0021). Every write the profile
// shows must mark the document stale, or get_listing would serve the old profile for good: each
// case below writes, reads the profile, and compares it with one built from scratch.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: Sql;
let siteId: number;
const SITE = 'http://docs.test';

beforeAll(async () => {
  db = await freshDatabase();
  sql = db.sql;
  siteId = (await ensureSite(sql, 'docs', SITE)).id;
}, 60_000);
afterAll(() => db.drop());

const read = async (slug: string) => {
  const [parts] = await profileParts(sql, siteId, [slug]);
  return parts && profileOf(parts, SITE);
};
const stored = async (id: number) =>
  (await sql<{ version: string; body: unknown }[]>`select version::text, body from listing_documents where listing_id = ${id}`)[0];

/** The profile as a reader with no stored document builds it now. */
async function rebuilt(id: number, slug: string): Promise<ListingProfileRow | undefined> {
  await sql`update listing_documents set body = null, version = version + 1 where listing_id = ${id}`;
  return read(slug);
}

describe('a stored profile follows every write it shows', async () => {
  let listing: { id: number; slug: string; companyId: number };
  let parent: { id: number };
  let child: { id: number };
  let founder: { id: number };

  beforeAll(async () => {
    parent = await makeCategory(sql, { slug: 'dev-tools', name: 'Developer tools' });
    child = await makeCategory(sql, { slug: 'testing', name: 'Testing', parentId: parent.id });
    listing = await makeListing(sql, { siteId, name: 'Docwise', categoryId: child.id, columns: { tagline: 'Keeps docs true' } });
    [founder] = await sql<{ id: number }[]>`insert into founders (slug, name) values ('ada', 'Ada') returning id::int`;
  });

  // Each write, and what the profile shows after it.
  const cases: [string, () => Promise<unknown>, (p: ListingProfileRow) => unknown, unknown][] = [
    [
      "the listing's own columns",
      () => sql`update listings set tagline = 'Keeps every doc true' where id = ${listing.id}`,
      (p) => p.tagline,
      'Keeps every doc true',
    ],
    [
      'a FAQ added',
      () => sql`insert into listing_faqs (listing_id, question, answer) values (${listing.id}, 'Free?', 'Yes')`,
      (p) => p.faqs,
      [{ question: 'Free?', answer: 'Yes' }],
    ],
    ['a FAQ edited', () => sql`update listing_faqs set answer = 'Yes, forever' where listing_id = ${listing.id}`, (p) => p.faqs[0].answer, 'Yes, forever'],
    ['a FAQ removed', () => sql`delete from listing_faqs where listing_id = ${listing.id}`, (p) => p.faqs, []],
    [
      'a social link',
      () => sql`insert into listing_socials (listing_id, platform, url) values (${listing.id}, 'github', 'https://github.com/docwise')`,
      (p) => p.socials,
      { github: 'https://github.com/docwise' },
    ],
    ['a table emptied', () => sql`truncate listing_socials`, (p) => p.socials, {}],
    [
      'an update posted',
      () => sql`insert into listing_updates (listing_id, title, body) values (${listing.id}, 'v2', 'Faster')`,
      (p) => p.latest_updates.map((u) => u.title),
      ['v2'],
    ],
    [
      'a founder linked',
      () => sql`insert into listing_founders (listing_id, founder_id) values (${listing.id}, ${founder.id})`,
      (p) => p.founders.map((f) => f.name),
      ['Ada'],
    ],
    ['a founder renamed', () => sql`update founders set name = 'Ada L.' where id = ${founder.id}`, (p) => p.founders.map((f) => f.name), ['Ada L.']],
    ['a category renamed', () => sql`update categories set name = 'Test tools' where id = ${child.id}`, (p) => p.categories[0].name, 'Test tools'],
    ['its parent renamed', () => sql`update categories set name = 'Dev tools' where id = ${parent.id}`, (p) => p.categories[0].parent?.name, 'Dev tools'],
    [
      'an extra category',
      async () => {
        const extra = await makeCategory(sql, { slug: 'docs', name: 'Docs' });
        await sql`insert into listing_categories (listing_id, category_id) values (${listing.id}, ${extra.id})`;
      },
      (p) => p.categories.map((c) => c.slug),
      ['testing', 'docs'],
    ],
    [
      'a Domain Rating measured',
      () => sql`insert into domain_ratings (company_id, measured_on, rating) values (${listing.companyId}, '2026-11-01', 41)`,
      (p) => p.domain_rating?.rating,
      41,
    ],
    ['an AI review', () => sql`insert into listing_ai_reviews (listing_id, body) values (${listing.id}, 'Solid.')`, (p) => p.ai_review?.body, 'Solid.'],
    ['the AI review hidden', () => sql`update listing_ai_reviews set hidden = true where listing_id = ${listing.id}`, (p) => p.ai_review, null],
    [
      'sections unlocked',
      () => sql`update listings set unlocked_sections = '{story,milestones,media}' where id = ${listing.id}`,
      (p) => [p.story, p.milestones, p.media],
      [null, [], []],
    ],
    [
      'a story written',
      () => sql`insert into founder_stories (listing_id, title) values (${listing.id}, 'How it began')`,
      (p) => p.story?.title,
      'How it began',
    ],
    [
      'a milestone',
      () => sql`insert into milestones (listing_id, date, title) values (${listing.id}, '2026-10-01', 'Launched')`,
      (p) => p.milestones?.map((m) => m.title),
      ['Launched'],
    ],
    [
      'a screenshot',
      () => sql`insert into listing_media (listing_id, kind, url) values (${listing.id}, 'image', 'https://docwise.test/a.png')`,
      (p) => p.media?.length,
      1,
    ],
    [
      'the slug changed',
      () => sql`update listings set slug = 'docwise-2' where id = ${listing.id}`,
      (p) => [p.slug, p.links.profile],
      ['docwise-2', `${SITE}/listings/docwise-2`],
    ],
  ];

  for (const [name, write, shown, expected] of cases) {
    test(name, async () => {
      // The document is stored before the write, as a busy listing's would be.
      const before = await read(listing.slug);
      expect((await stored(listing.id))?.body).not.toBeNull();
      await write();
      const [{ slug }] = await sql<{ slug: string }[]>`select slug from listings where id = ${listing.id}`;
      listing.slug = slug;
      const after = await read(slug);
      expect(shown(after!)).toEqual(expected);
      expect(after).not.toEqual(before);
      expect(after).toEqual(await rebuilt(listing.id, slug));
    });
  }

  test('a write the profile does not show keeps the stored document', async () => {
    await read(listing.slug);
    const before = await stored(listing.id);
    await sql`update listings set badge_checked_at = now(), last_crawled_at = now() where id = ${listing.id}`;
    expect(await stored(listing.id)).toEqual(before);
  });

  test('votes, views and the featured window are read live, never from the document', async () => {
    await read(listing.slug);
    await sql`insert into listing_stats (listing_id, site_id, live, votes, week_votes, trend_log, follows, views, rating_avg, rating_count)
              values (${listing.id}, ${siteId}, true, 7, 7, 0, 2, 30, 4.5, 2)
              on conflict (listing_id) do update set votes = 7, follows = 2, views = 30, rating_avg = 4.5, rating_count = 2`;
    await sql`insert into listing_featured (listing_id, starts_at, ends_at) values (${listing.id}, now() - interval '1 day', '2099-01-01')`;
    const p = await read(listing.slug);
    expect([p!.votes, p!.follows, p!.views, p!.community_rating, p!.featured_until]).toEqual([7, 2, 30, { average: 4.5, count: 2 }, '2099-01-01T00:00:00Z']);
  });

  test('a listing deleted takes its document with it', async () => {
    const gone = await makeListing(sql, { siteId });
    await read(gone.slug);
    expect(await stored(gone.id)).toBeDefined();
    await sql`delete from listings where id = ${gone.id}`;
    expect(await stored(gone.id)).toBeUndefined();
  });
});

test('a reader never waits on a writer, and stores nothing the writer is changing', async () => {
  const l = await makeListing(sql, { siteId, name: 'Racer', columns: { tagline: 'old' } });
  await read(l.slug);
  // Stale, as after any write: the next reader builds it.
  await sql`update listings set tagline = 'older' where id = ${l.id}`;
  // A writer changes the listing and holds its transaction open...
  const writer = await sql.reserve();
  try {
    await writer`begin`;
    await writer`update listings set tagline = 'new' where id = ${l.id}`;
    // ...and a reader is answered meanwhile, from what is committed, without storing it.
    const answered = await settles(read(l.slug));
    expect(answered.settled && answered.value?.tagline).toBe('older');
    await writer`commit`;
  } finally {
    writer.release();
  }
  expect((await stored(l.id))?.body).toBeNull();
  expect((await read(l.slug))!.tagline).toBe('new');
});

test('a document built before a write committed is not stored', async () => {
  const l = await makeListing(sql, { siteId, name: 'Versioned', columns: { tagline: 'one' } });
  // No row yet: the reader's first store makes it.
  await storeDocument(sql, l.id, null);
  expect((await stored(l.id))?.version).toBe('0');
  await sql`update listings set tagline = 'two' where id = ${l.id}`;
  const [{ version }] = await sql<{ version: string }[]>`select version::text from listing_documents where listing_id = ${l.id}`;
  // A reader saw this version with no body; then another write committed before its store.
  await sql`update listings set tagline = 'three' where id = ${l.id}`;
  await storeDocument(sql, l.id, version);
  expect((await stored(l.id))?.body).toBeNull();
  // One that saw the current version stores what it built.
  const current = (await stored(l.id))!.version;
  await storeDocument(sql, l.id, current);
  expect(((await stored(l.id))!.body as ListingProfileRow).tagline).toBe('three');
  // And a reader that saw no row while a writer made one stores nothing over it.
  const other = await makeListing(sql, { siteId, name: 'Late' });
  await sql`update listings set tagline = 'made by a writer' where id = ${other.id}`;
  await storeDocument(sql, other.id, null);
  expect(await stored(other.id)).toEqual({ version: '1', body: null });
});

test('every table the document is built from marks documents stale on the writes that change them', async () => {
  const [{ def }] = await sql<{ def: string }[]>`select pg_get_functiondef('listing_document(bigint)'::regprocedure) as def`;
  const named = new Set([...def.matchAll(/\b(?:from|join)\s+([a-z_]+)/g)].map((m) => m[1]));
  const tables = await sql<{ name: string }[]>`
    select relname as name from pg_class where relkind = 'r' and relnamespace = current_schema()::regnamespace and relname = any(${[...named]})`;
  // Rows that belong to a listing: any insert, update, delete or truncate. The listing, its
  // founders and categories: updates (an insert touches no existing listing; their deletes cascade
  // to the rows above or are refused).
  const events: Record<string, string[]> = {
    // Emptied only with listing_documents (its foreign key).
    listings: ['update'],
    founders: ['truncate', 'update'],
    categories: ['truncate', 'update'],
  };
  const covered = await sql<{ name: string; events: string[] }[]>`
    select c.relname as name, array_agg(distinct e order by e) as events
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    cross join lateral (values ('insert', 4), ('delete', 8), ('update', 16), ('truncate', 32)) x (e, bit)
    where not t.tgisinternal and t.tgtype & x.bit <> 0
      and (p.prosrc like '%stale_listing_documents%' or p.prosrc like '%update listing_documents set body = null%')
    group by c.relname`;
  const byTable = Object.fromEntries(covered.map((c) => [c.name, c.events]));
  expect(tables.map((t) => t.name).sort()).toEqual(
    [
      'categories',
      'domain_ratings',
      'founder_stories',
      'founders',
      'listing_ai_reviews',
      'listing_categories',
      'listing_faqs',
      'listing_founders',
      'listing_media',
      'listing_socials',
      'listing_updates',
      'listings',
      'milestones',
    ].sort(),
  );
  for (const { name } of tables) {
    expect({ table: name, events: byTable[name] }).toEqual({ table: name, events: events[name] ?? ['delete', 'insert', 'truncate', 'update'] });
  }
});

test('a later migration that redefines the document marks every stored one stale', async () => {
  const dir = new URL('../migrations/', import.meta.url);
  const files = (await Array.fromAsync(new Bun.Glob('*.sql').scan(dir.pathname))).sort();
  const later = files.filter((f) => f > '0021_listing_documents.sql');
  for (const file of later) {
    const text = await Bun.file(new URL(file, dir)).text();
    if (/function\s+listing_document\s*\(/i.test(text)) {
      expect({
        file,
        marksStale:
          /update\s+listing_documents\s+set\s+(version\s*=\s*version\s*\+\s*1\s*,\s*body\s*=\s*null|body\s*=\s*null\s*,\s*version\s*=\s*version\s*\+\s*1)/i.test(
            text,
          ),
      }).toEqual({
        file,
        marksStale: true,
      });
    }
  }
  // 0021 itself defines it; the check reads the migrations that come after.
  expect(files).toContain('0021_listing_documents.sql');
});

// get_listing sends the stored document's text with its live members written in where it holds them
// as null (profileJson), rather than parsing it and stringifying it again.
test("the live members are written into the document's text, whatever its strings say", async () => {
  const bait = 'say "profile_url":null, "links":null,"votes":null,"follows":null,"views":null and "featured_until":null';
  const l = await makeListing(sql, { siteId, name: `Bait "votes":null`, columns: { tagline: bait, description: bait, pricing_model: 'paid' } });
  await sql`insert into listing_faqs (listing_id, question, answer, position) values (${l.id}, ${bait}, ${`{"votes":null}`}, 0)`;
  await sql`insert into listing_stats (listing_id, site_id, live, votes, week_votes, trend_log, follows, views, rating_avg, rating_count)
            values (${l.id}, ${siteId}, true, 7, 7, 0, 2, 30, 4.5, 2)`;
  const [parts] = await profileParts(sql, siteId, [l.slug]);
  const api = `${SITE}/api/v1/listings/${l.slug}`;
  const live = {
    profile_url: `${SITE}/listings/${l.slug}`,
    community_rating: { average: 4.5, count: 2 },
    links: { website: `https://${l.slug}.test`, profile: `${SITE}/listings/${l.slug}`, badges: `${api}/badges`, alternatives: `${api}/alternatives` },
    votes: 7,
    follows: 2,
    views: 30,
    featured_until: null,
  };
  const text = profileJson(parts!, SITE);
  const document = JSON.parse(parts!.body) as Record<string, unknown>;
  const expected = { ...document, ...live };
  expect(JSON.parse(text)).toEqual(expected);
  // In the document's order, and written into its text (json_build_object's `"model" : ` kept), not re-serialised.
  expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(document));
  expect(text).toContain('"model" : "paid"');
  expect((JSON.parse(text) as ListingProfileRow).faqs).toEqual([{ question: bait, answer: '{"votes":null}' }]);

  // A document holding one of the members twice (a shape this code does not know), before its own
  // or after it, is parsed and filled in.
  for (const body of [parts!.body.replace(/^\{"id":\d+,/, '$&"extra":{"votes":null},'), parts!.body.replace(/\}$/, ',"extra":{"votes":null}}')]) {
    expect(body).not.toBe(parts!.body);
    const filled = JSON.parse(profileJson({ ...parts!, body }, SITE)) as Record<string, unknown>;
    expect(filled.votes).toBe(7);
    expect(filled.extra).toEqual({ votes: null });
    expect(filled).toEqual({ ...(JSON.parse(body) as object), ...live });
  }
});

import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { seedDemo } from '../../seeds/demo.ts';
import { ensureSite } from '../site.ts';
import { searchListingIds, searchListings } from './listings.ts';
import { listingSummaries } from './summaries.ts';

// A listing summary comes two ways from one list of members: as rows (listingSummaries, for ids the
// caller holds) and as one JSON array inside a statement that picks its own ids
// (listing_summaries, the page of search.sql and the browse statements). A client must not
// tell them apart: same members, order, values and types.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;
const SITE = 'https://directory.example';

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', SITE)).id;
  await seedDemo(db.sql, siteId);
  // Counters, a category-less listing and a never-launched one, so nulls and numbers both show.
  await db.sql`select refresh_directory_views()`;
  await db.sql`update listings set primary_category_id = null, launched_at = null, logo_url = null
               where id = (select id from listings where site_id = ${siteId} and status = 'live' order by id limit 1)`;
}, 120_000);
afterAll(() => db?.drop());

test('the JSON summaries are the rows, member for member, in the order of the ids', async () => {
  // The bare listing first, then others in an order of no index's.
  const ids = (
    await db.sql<{ id: bigint }[]>`select id from listings where site_id = ${siteId} order by primary_category_id is null desc, md5(slug) limit 25`
  ).map((r) => r.id);
  expect(ids.length).toBeGreaterThan(10);
  const rows = await listingSummaries(db.sql, ids, SITE);
  const [{ items }] = await db.sql<
    { items: unknown[] }[]
  >`select s.items from listing_summaries(${ids.map(String)}::bigint[], ${`${SITE}/listings/`}) as s(items)`;
  expect(rows.map((r) => r.id)).toEqual(ids.map(Number));
  expect(JSON.stringify(items)).toBe(JSON.stringify(rows));
  expect(rows.some((r) => r.category === null && r.launched_at === null)).toBe(true);
  expect(rows.some((r) => r.category !== null && r.votes > 0)).toBe(true);
  // No ids: an empty array, not null.
  const [{ items: none }] = await db.sql<{ items: unknown[] }[]>`select s.items from listing_summaries('{}'::bigint[], ${`${SITE}/listings/`}) as s(items)`;
  expect(none).toEqual([]);
});

test('a search answers with the summaries of the ids it picks, with and without q', async () => {
  for (const f of [
    { q: 'tool', status: 'live', sort: 'relevance' },
    { q: 'no such word anywhere', status: 'live', sort: 'relevance' },
    { status: 'live', sort: 'votes' },
    { status: 'live', sort: 'newest' },
  ] as const) {
    const byIds = await searchListingIds(db.sql, siteId, f, 1, 7);
    const bySummaries = await searchListings(db.sql, siteId, f, 1, 7, SITE);
    expect(bySummaries.total).toBe(byIds.total);
    expect(bySummaries.items).toEqual(await listingSummaries(db.sql, byIds.ids, SITE));
  }
});

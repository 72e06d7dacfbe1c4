import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { makeListing } from '../../test/builders.ts';
import { ensureSite } from '../site.ts';
import { latestUpdates } from './updates.ts';

// The latest updates page newest first, with "more" told by one row past the page: only updates of
// this site's live listings.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let siteId: number;

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  const otherSite = (await db.sql<{ id: number }[]>`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`)[0]!.id;
  const a = await makeListing(db.sql, { siteId, slug: 'alpha' });
  const b = await makeListing(db.sql, { siteId, slug: 'beta' });
  const hidden = await makeListing(db.sql, { siteId, slug: 'gone', status: 'hidden' });
  const elsewhere = await makeListing(db.sql, { siteId: otherSite, slug: 'alpha', domain: 'alpha-elsewhere.test' });
  // 25 updates of live listings an hour apart (two at the same time, ordered by id), and some that never show.
  await db.sql`
    insert into listing_updates (listing_id, title, body, created_at)
    select case when i % 2 = 0 then ${a.id}::bigint else ${b.id}::bigint end, 'Update ' || i, 'Body ' || i,
           timestamptz '2026-06-01' + least(i, 24) * interval '1 hour'
    from generate_series(1, 25) i`;
  await db.sql`
    insert into listing_updates (listing_id, title, body, created_at)
    values (${hidden.id}, 'Hidden', 'x', '2026-07-01'), (${elsewhere.id}, 'Elsewhere', 'x', '2026-07-01')`;
}, 60_000);
afterAll(() => db.drop());

test('pages run newest first over live listings of the site, and say when there is more', async () => {
  const first = await latestUpdates(db.sql, siteId, 1, 10);
  expect(first.items.map((u) => u.title)).toEqual(['Update 25', 'Update 24', ...Array.from({ length: 8 }, (_, k) => `Update ${23 - k}`)]);
  expect(first).toMatchObject({ page: 1, per_page: 10, has_more: true });
  const third = await latestUpdates(db.sql, siteId, 3, 10);
  expect(third.items.map((u) => u.title)).toEqual(['Update 5', 'Update 4', 'Update 3', 'Update 2', 'Update 1']);
  expect(third.has_more).toBe(false);
  // A page that ends exactly at the last update has no more.
  expect((await latestUpdates(db.sql, siteId, 1, 25)).has_more).toBe(false);
  expect((await latestUpdates(db.sql, siteId, 1, 24)).has_more).toBe(true);
  expect((await latestUpdates(db.sql, siteId, 9, 10)).items).toEqual([]);
});

test("one listing's updates", async () => {
  const out = await latestUpdates(db.sql, siteId, 1, 50, 'alpha');
  expect(out.items).toHaveLength(12);
  expect(new Set(out.items.map((u) => u.listing_slug))).toEqual(new Set(['alpha']));
  expect(out.has_more).toBe(false);
  expect((await latestUpdates(db.sql, siteId, 1, 50, 'gone')).items).toEqual([]);
});

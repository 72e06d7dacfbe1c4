import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { typoTsqueries } from '../../test/typo.ts';
import { connect, type Sql } from '../db.ts';
import { seedDemo } from '../../seeds/demo.ts';
import { seedSynthetic } from '../../seeds/synthetic.ts';
import { ensureSite } from '../site.ts';
import { categoryListingIds } from './categories.ts';
import { listingAlternativeIds } from './listing-alternatives.ts';
import { searchListingIds, searchListings } from './listings.ts';
import { listingSummaries } from './summaries.ts';
import { profileParts } from './listing-profile.ts';
import { loadVocabulary } from './search-vocabulary.ts';
import { latestUpdates } from './updates.ts';

// The hot reads are prepared statements, and PostgreSQL keeps a cached plan for one only when its
// generic plan costs no more than the custom plans it made for the first five calls. A bound value
// that a custom plan sees and a generic one cannot (a LIMIT, an array's length, a category's size)
// breaks that, and the statement is planned anew on every call: as much time again as it runs. These
// reads are written so that the cached plan is kept; pg_prepared_statements counts which plans
// each statement used on this connection. The summaries' bound array and the latest updates' bound
// limit are replanned at any size, so their old forms fail here; the old alternatives and category
// statements were replanned only at sizes this test does not build (seen at 100,000 listings with
// pg_stat_statements), so for them this is a guard, not a proof.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let one: Sql; // one connection, so every call below uses the same prepared statements
let siteId: number;

beforeAll(async () => {
  db = await freshDatabase();
  siteId = (await ensureSite(db.sql, 'main', 'http://localhost')).id;
  await seedDemo(db.sql, siteId);
  await seedSynthetic(db.sql, siteId, 3000);
  await db.sql`analyze`;
  one = connect(db.url, { max: 1 });
}, 120_000);
afterAll(async () => {
  await one?.end();
  await db.drop();
});

test('the hot reads keep a cached plan over calls with different values', async () => {
  const slugs = (await one<{ slug: string }[]>`select slug from listings where site_id = ${siteId} and status = 'live' order by md5(slug) limit 15`).map(
    (r) => r.slug,
  );
  const names = (
    await one<{ name: string }[]>`select lower(name) as name from listings where site_id = ${siteId} and status = 'live' order by md5(slug) limit 15`
  ).map((r) => r.name);
  const categories = (
    await one<{ id: number }[]>`select distinct primary_category_id::int as id from listings where primary_category_id is not null limit 15`
  ).map((r) => r.id);
  const categorySlugs = (await one<{ slug: string }[]>`select slug from categories order by slug limit 15`).map((r) => r.slug);
  // Two-word names run together that no word matches: each search runs search-names.sql too.
  const candidates = await db.sql<{ q: string }[]>`
    select replace(lower(name), ' ', '') as q from listings
    where site_id = ${siteId} and status = 'live' and name ~ '^[A-Za-z]+ [A-Za-z]+$' order by md5(slug) limit 200`;
  const vocabulary = await loadVocabulary(db.sql);
  const runTogether: string[] = [];
  for (const { q } of candidates) {
    if (runTogether.length === 15) break;
    const { matched } = await typoTsqueries(db.sql, q, vocabulary);
    const [{ any }] = await db.sql<{ any: boolean }[]>`
      select exists (select from listings l where l.site_id = ${siteId} and l.status = 'live' and l.search @@ ${matched}::tsquery) as any`;
    if (!any) runTogether.push(q);
  }
  expect(runTogether.length).toBe(15);
  for (let i = 0; i < 15; i++) {
    // Names with their last letter changed: a typo search of a few matches.
    const q = names[i]!.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));
    const { ids } = await searchListingIds(one, siteId, { q, status: 'live', sort: 'relevance' }, 1 + (i % 3), 5 + i);
    await listingSummaries(one, ids.length ? ids : [0n], 'http://localhost');
    // The search as the API runs it: the page's summaries from the same statement.
    await searchListings(one, siteId, { q, status: 'live', sort: 'relevance' }, 1 + (i % 3), 5 + i, 'http://localhost');
    await searchListingIds(one, siteId, { q: runTogether[i]!, status: 'live', sort: 'relevance' }, 1 + (i % 3), 5 + i);
    await listingAlternativeIds(one, siteId, slugs[i]!, 1 + (i % 2), 6 + i);
    await categoryListingIds(one, siteId, categories[i % categories.length]!, 1 + (i % 4), 10 + i);
    await latestUpdates(one, siteId, 1, 5);
    // Lists without q by one pricing model or country, rare, broad or used by none: one statement,
    // counted from listing_facet_counts, the value of which no plan may see.
    await searchListingIds(one, siteId, { status: 'live', sort: 'votes', pricingModel: ['enterprise', 'Freemium', 'barter', 'paid'][i % 4] }, 1, 20);
    await searchListingIds(one, siteId, { status: 'live', sort: 'trending', country: ['US', 'nz', 'ZZ', 'de', 'FR'][i % 5] }, 2, 20);
    // The other lists without q, each one statement whatever its sort and page.
    const sort = (['relevance', 'newest', 'trending', 'most_viewed', 'most_followed'] as const)[i % 5];
    await searchListingIds(one, siteId, { status: 'live', sort }, 1 + (i % 3), 10 + i);
    await searchListingIds(one, siteId, { status: 'live', sort, category: categorySlugs[i % categorySlugs.length] }, 1 + (i % 2), 20);
    await searchListingIds(one, siteId, { status: i % 2 ? 'upcoming' : 'live', sort, stage: 'launched', country: 'US' }, 1, 20);
    // get_listing's misses of one turn: one slug or several (api/http/batched-read.ts).
    await profileParts(one, siteId, slugs.slice(0, 1 + (i % 4)));
  }
  const plans = await one<{ statement: string; generic: number; custom: number }[]>`
    select regexp_replace(statement, '\\s+', ' ', 'g') as statement, generic_plans::int as generic, custom_plans::int as custom
    from pg_prepared_statements where generic_plans + custom_plans >= 15`;
  // A statement by what its text holds: one part, or several that only it holds together (a
  // search's name-similarity fallback and the lists without q share the searches' outer shape).
  const of = (part: string | string[]) => plans.find((p) => [part].flat().every((x) => p.statement.includes(x)));
  // Each read was called 15 times: at most 5 custom plans (none for a statement with no bound
  // values), then the cached one.
  for (const part of ['unnest((select', 'primary_category_live', 'from category_members m', 'from listing_updates u', 'left join listing_documents d']) {
    const p = of(part);
    expect({ part, called: (p?.custom ?? 0) + (p?.generic ?? 0), replanned: (p?.custom ?? 0) > 5 }).toEqual({ part, called: 15, replanned: false });
  }
  // The search statement (search.sql) answers both forms: ids, and the page's summaries, and the
  // run-together names; the list by one facet (browse-facet.sql) both the pricing models and the
  // countries; each other list without q (browse-*.sql) every sort and page.
  for (const [part, calls] of [
    ['planned_tsqueries($16::text[]', 45],
    ['from listing_facet_count_deltas d', 30],
    ['search_listings without q or filters', 15],
    ['search_listings without q, by a category alone', 15],
    ['search_listings without q, by any other filters', 15],
  ] as const) {
    const p = of(part);
    expect({ part, called: (p?.custom ?? 0) + (p?.generic ?? 0), replanned: (p?.custom ?? 0) > 5 }).toEqual({ part, called: calls, replanned: false });
  }
  // The names' fallback (search-names.sql): the run-together names, and any typo search above that
  // no word matched.
  const byName = of('lower(l.name) % p.q_name');
  expect(byName?.generic ?? 0).toBeGreaterThanOrEqual(10);
  expect(byName?.custom ?? 0).toBeLessThanOrEqual(5);
});

test("a page of alternatives reads about as many of its category's index entries as it shows", async () => {
  // The category's live listings in votes order (migration 0024), not a walk of the whole directory
  // in votes order that looks up each listing's category (about 180 lookups a page at 100k).
  const read = async () => {
    await one`select pg_stat_force_next_flush()`;
    const rows = await one<{ index: string; read: number }[]>`
      select indexrelname as index, idx_tup_read::int as read from pg_stat_user_indexes
      where indexrelname in ('listing_stats_category_rank', 'listing_stats_live_rank')`;
    return Object.fromEntries(rows.map((r) => [r.index, r.read])) as Record<string, number>;
  };
  const slugs = (
    await one<{ slug: string }[]>`
      select l.slug from listings l join listing_stats s on s.listing_id = l.id and s.live
      where l.site_id = ${siteId} and l.status = 'live' and l.primary_category_id is not null
        and not exists (select from listing_alternatives a where a.listing_id = l.id)
      order by md5(l.slug) limit 20`
  ).map((r) => r.slug);
  const before = await read();
  let shown = 0;
  for (const slug of slugs) shown += (await listingAlternativeIds(one, siteId, slug, 1, 6))!.items.length;
  const after = await read();
  expect(shown).toBeGreaterThan(60);
  expect(after.listing_stats_live_rank).toBe(before.listing_stats_live_rank!);
  // Each page reads what it shows, and an entry more where the listing itself is among them.
  const entries = after.listing_stats_category_rank! - before.listing_stats_category_rank!;
  expect(entries).toBeGreaterThanOrEqual(shown);
  expect(entries).toBeLessThanOrEqual(shown + slugs.length);
});

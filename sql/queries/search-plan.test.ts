import { beforeAll, expect, test } from 'bun:test';
import { planDatabase, ranPlan, type PlanDatabase } from '../../test/plans.ts';
import type { Sql } from '../db.ts';
import { typoTsqueries } from '../../test/typo.ts';
import { SEARCH_NAMES_SQL, SEARCH_SQL, searchParameters, typoPlanParameters } from './listings.ts';
import type { SearchFilters } from './listing-filters.ts';
import { loadVocabulary } from './search-vocabulary.ts';
import { planTypoSearch } from './typo-plan.ts';

// The plans of search.sql and search-names.sql as PostgreSQL caches them (generic: the plan every
// call after the fifth runs). The GIN index over the words finds the matches alone (the fence on
// site and status keeps the (site_id, status) index out of it); the names' trigram index is read
// only by search-names.sql, run only when no word matched.

const plans = planDatabase(3000);
let db: PlanDatabase['db'];
let one: Sql;
let siteId: number;
beforeAll(() => {
  ({ db, one, siteId } = plans);
});

/** A statement's parameters: search.sql's with q planned from a fresh copy of the vocabulary. */
const parameters = async (f: SearchFilters & { q: string }, siteUrl: string | null, statement = SEARCH_SQL) => {
  const values = searchParameters(siteId, f, 1, 20, siteUrl);
  return statement === SEARCH_SQL ? [...values, ...typoPlanParameters(planTypoSearch(await loadVocabulary(one), f.q))] : values;
};

const plan = async (f: SearchFilters & { q: string }, siteUrl: string | null = null, statement = SEARCH_SQL) =>
  (await ranPlan(one, statement, await parameters(f, siteUrl, statement))).text;

const node = (text: string, index: string) => text.split('\n').find((l) => l.includes(`Index Scan on ${index}`)) ?? null;

test('words are found by the GIN index alone; the names are not read', async () => {
  const [{ name }] = await db.sql<
    { name: string }[]
  >`select lower(name) as name from listings where site_id = ${siteId} and status = 'live' order by id limit 1`;
  for (const sort of ['relevance', 'votes', 'newest'] as const) {
    const text = await plan({ q: name.replace(/.$/, 'x'), status: 'live', sort }, 'http://localhost');
    expect(node(text, 'listings_search')).toContain('Bitmap Index Scan');
    expect(node(text, 'listings_search')).not.toContain('never executed');
    expect(text).not.toContain('listings_browse');
    expect(text).not.toContain('listings_name_trgm');
    // The summaries' function is inlined into the statement, never called as a function scan.
    expect(text).not.toContain('Function Scan on listing_summaries');
  }
});

test('only when no word matches, names similar to q as a whole are found by the trigram index', async () => {
  // A two-word name run together, in the US, that no word matches there but a name is similar to.
  const candidates = await db.sql<{ q: string }[]>`
    select replace(lower(name), ' ', '') as q from listings
    where site_id = ${siteId} and status = 'live' and country = 'US' and name ~ '^[A-Za-z]+ [A-Za-z]+$' order by id limit 50`;
  const v = await loadVocabulary(db.sql);
  let q = '';
  for (const c of candidates) {
    const { matched } = await typoTsqueries(db.sql, c.q, v);
    const [{ any }] = await db.sql<{ any: boolean }[]>`
      select exists (select from listings l where l.site_id = ${siteId} and l.status = 'live' and l.country = 'US' and l.search @@ ${matched}::tsquery) as any`;
    if (!any) {
      q = c.q;
      break;
    }
  }
  expect(q).not.toBe('');
  const f = { q, status: 'live', sort: 'relevance', country: 'US' } as const;
  expect((await one.unsafe<{ total: number }[]>(SEARCH_SQL, (await parameters(f, null)) as never[]))[0]!.total).toBe(0);
  const text = await plan(f, null, SEARCH_NAMES_SQL);
  expect(node(text, 'listings_name_trgm')).not.toBeNull();
  expect(node(text, 'listings_name_trgm')).not.toContain('never executed');
  expect(text).not.toContain('listings_browse');
});

import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeListing } from '../../test/builders.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// The edge plans a search's typo correction from its own copy of the vocabulary (migration 0025):
// after its first search has loaded the copy, PostgreSQL builds the tsqueries from the edge's plan
// (typo_tsqueries_planned) instead of looking the vocabulary up itself (typo_tsqueries).

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    prepare: async (sql, siteId) => {
      // Counted per function for this database's sessions, the edge's included.
      const [{ db }] = await sql<{ db: string }[]>`select current_database() as db`;
      await sql.unsafe(`alter database ${db} set track_functions = 'pl'`);
      for (const [slug, name] of [
        ['notion-clone', 'Notion Clone'],
        ['ledgerly', 'Ledgerly Bookkeeping'],
      ])
        await makeListing(sql, { siteId, slug, name, domain: `${slug}.test`, status: 'live' });
    },
  });
}, 60_000);
afterAll(() => app?.stop());

const calls = async (fn: string) =>
  Number((await app.sql<{ n: string }[]>`select coalesce(sum(calls), 0)::text as n from pg_stat_user_functions where funcname = ${fn}`)[0]!.n);

/** A counter once it reaches `atLeast`, polled: a session reports its counts within about 10 s of its calls. */
async function reaches(fn: string, atLeast: number) {
  let n = await calls(fn);
  for (let i = 0; i < 150 && n < atLeast; i++) {
    await Bun.sleep(100);
    n = await calls(fn);
  }
  return n;
}

test('searches are planned by the edge once it holds the vocabulary, and find what the database finds', async () => {
  // The first search asks for the copy; until it is in, the database plans.
  const first = await app.json('/listings?q=notoin');
  expect(first.body.items.map((i: { slug: string }) => i.slug)).toEqual(['notion-clone']);
  await Bun.sleep(500);
  const before = await calls('typo_tsqueries_planned');
  // Twenty searches no one asked before (no cached answer), each planned by the edge.
  const typos = ['notiom', 'notin', 'noton', 'ntion', 'nottion', 'bookeeping', 'bokkeeping', 'bookkeepng', 'ledgrly', 'ledgerl'];
  for (const q of typos.flatMap((t) => [t, `${t} ${t.startsWith('n') ? 'clone' : 'ledgerly bookkeeping'}`])) {
    const res = await app.json(`/listings?q=${encodeURIComponent(q)}`);
    expect({ q, found: res.body.items.length }).toEqual({ q, found: 1 });
  }
  expect(await reaches('typo_tsqueries_planned', before + 20)).toBeGreaterThanOrEqual(before + 20);
}, 60_000);

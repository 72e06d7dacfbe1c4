import { connect } from '../sql/db.ts';
import { searchListingIds } from '../sql/queries/listings.ts';
import { benchDatabase } from './database.ts';
import { oneTypo, prng } from './scenarios.ts';

/**
 * `npm run bench:typo-peer`: our search beside the plain trigram search other directories run (one
 * statement: similarity() over name and tagline, served by the GIN trigram indexes), on the bench
 * database and the same one-typo names: recall@5 (a listing of exactly that name among the first
 * five) and queries a second of each through a pool of BENCH_CONNECTIONS (8). Each name has one typo
 * in one of its words of four letters or more, chosen at random, so multi-word names whose first
 * word many listings share are mistyped in either word. BENCH_TYPO_QUERIES (2000) names.
 */
const PEER = `select l.id from listings l
  where l.site_id = $1 and l.status = 'live' and (lower(l.name) % $2 or lower(l.tagline) % $2)
  order by greatest(similarity(lower(l.name), $2), similarity(lower(l.tagline), $2)) desc, l.id
  limit 5`;

const count = Number(process.env.BENCH_TYPO_QUERIES ?? 2000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);

const { url, sql, siteId, stop } = await benchDatabase(Number(process.env.BENCH_LISTINGS ?? 100_000));
const pool = connect(url, { max: connections });
try {
  const names = (
    await sql<{ name: string; ids: string[] }[]>`
      select lower(name) as name, array_agg(id::text) as ids from listings where site_id = ${siteId} and status = 'live' group by 1 order by md5(lower(name))`
  ).filter((r) => r.name.split(/\s+/).some((w) => w.length >= 4));
  const rnd = prng(45);
  const queries = Array.from({ length: count }, (_, i) => {
    const { name, ids } = names[i % names.length]!;
    const words = name.split(/\s+/).filter((w) => w.length >= 4);
    const word = words[Math.floor(rnd() * words.length)]!;
    return { q: name.replace(word, oneTypo(rnd, word)), ids: new Set(ids) };
  });
  const measure = async (label: string, top5: (q: string) => Promise<string[]>) => {
    for (const { q } of queries.slice(0, 50)) await top5(q); // plans and caches warm
    const took: number[] = [];
    let found = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < queries.length) {
          const { q, ids } = queries[next++]!;
          const t = performance.now();
          const got = await top5(q);
          took.push(performance.now() - t);
          if (got.some((id) => ids.has(id))) found++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    took.sort((a, b) => a - b);
    const at = (p: number) => took[Math.min(took.length - 1, Math.floor(p * took.length))]!.toFixed(1);
    console.log(
      `${label}: recall@5 ${((100 * found) / queries.length).toFixed(1)}%, ${(queries.length / seconds).toFixed(0)} req/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
    );
  };
  console.log(`${queries.length} one-typo names, ${connections} connections`);
  await measure('ours: search_listings', async (q) => (await searchListingIds(pool, siteId, { q, status: 'live', sort: 'relevance' }, 1, 5)).ids.map(String));
  await measure('peer: similarity() over name and tagline', async (q) => (await pool.unsafe(PEER, [siteId, q], { prepare: true })).map((r) => String(r.id)));
} finally {
  await pool.end();
  await stop();
}

import { readFileSync } from 'node:fs';
import { IN_PROCESS_BASE, inProcessApp } from './in-process-app.ts';
import { oneTypoNames, prng } from './scenarios.ts';
import { alternativeIdsOf } from '../sql/queries/listing-alternatives.ts';
import { listingPageParts } from '../sql/queries/listing-page.ts';
import { profileParts } from '../sql/queries/listing-profile.ts';
import { listingSummaries } from '../sql/queries/summaries.ts';

/**
 * `bun bench/long-tail-cpu.ts`: what a long-tail miss costs in CPU, the edge's and PostgreSQL's,
 * per request: BENCH_REQUESTS (3000) distinct slugs through get_listing and through the listing
 * page, and as many distinct one-typo names through search, BENCH_CONCURRENCY (25) at a time
 * straight to the app's handler, so misses started in the same turn share their statements as
 * under load. On a machine shared with other work, where req/s
 * swing with the neighbours, CPU per request is the steadier figure. PostgreSQL's share is read
 * from /proc (Linux) for the embedded bench server, its exited backends included. Last, a bound on
 * the page long tail: the page's reads beside get_listing's, without requests or rendering.
 */
const requests = Number(process.env.BENCH_REQUESTS ?? 3000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 25);
// DB_POOL_SIZE as the edge reads it (10 when unset here): fewer connections cost PostgreSQL less CPU a statement.
const { db, sql, handle, close } = await inProcessApp({ cacheTtlSeconds: 3600, connections: Number(process.env.DB_POOL_SIZE ?? 10) });
const [{ pid }] = await db.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
const postmaster = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const ticks = (p: number, fields: number[]) => {
  const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return fields.reduce((s, i) => s + Number(f[i - 3]), 0);
};
/** The server's CPU in ticks: its own, its children's that exited, and its live children's. */
const postgresTicks = () => {
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return (
    ticks(postmaster, [14, 15, 16, 17]) +
    children.reduce(
      (s, c) =>
        s +
        (() => {
          try {
            return ticks(c, [14, 15]);
          } catch {
            return 0;
          }
        })(),
      0,
    )
  );
};
const slugs = (
  await db.sql<{ slug: string }[]>`select slug from listings where site_id = ${db.siteId} and status = 'live' order by md5(slug || ${String(Date.now())})`
).map((r) => r.slug);
// Distinct one-typo names, as the bench's long tail of search asks them.
const typoNames = await oneTypoNames(db.sql, db.siteId, requests + 1000, prng(Date.now() % 100_000));
let next = 0;
let typo = 0;
const run = async (path: (slug: string) => string, n: number) => {
  let started = 0;
  const worker = async () => {
    while (started++ < n) {
      // Not a crawler's user agent: the page counts the view, as it does in `npm run bench`.
      const res = await handle(new Request(`${IN_PROCESS_BASE}${path(slugs[next++ % slugs.length]!)}`, { headers: { 'user-agent': 'bench' } }));
      if (res.status !== 200) throw new Error(`${res.status} ${res.url}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
};
const perRequest = new Map<string, number>();
for (const [name, path] of [
  ['long tail: get_listing', (s: string) => `/api/v1/listings/${s}`],
  ['long tail: listing page', (s: string) => `/listings/${s}`],
  ['long tail: search', () => `/api/v1/listings?q=${encodeURIComponent(typoNames[typo++ % typoNames.length]!)}`],
] as const) {
  await run(path, 300);
  const pg0 = postgresTicks();
  const cpu0 = process.cpuUsage();
  await run(path, requests);
  const cpu = process.cpuUsage(cpu0);
  const edge = (cpu.user + cpu.system) / requests;
  const postgres = ((postgresTicks() - pg0) * 10_000) / requests;
  perRequest.set(name, edge + postgres);
  console.log(`${name.padEnd(24)} ${edge.toFixed(0).padStart(6)} µs edge CPU  ${postgres.toFixed(0).padStart(6)} µs PostgreSQL CPU a request`);
}

// A bound on the page's long tail: its reads beside get_listing's, without a request around them
// or any rendering, in batches as large as the concurrency (the cheapest a slug can get). A page
// miss costs at least a get_listing miss plus these, whatever renders it.
const reads = async (batch: readonly string[], page: boolean) => {
  if (!page) return void (await profileParts(sql, db.siteId, batch));
  const [, , alternatives] = await Promise.all([
    profileParts(sql, db.siteId, batch),
    listingPageParts(sql, db.siteId, batch),
    alternativeIdsOf(sql, db.siteId, batch, 1, 6),
  ]);
  const ids = [...new Set(alternatives.flatMap((a) => a?.items.map((i) => i.id) ?? []))];
  await listingSummaries(sql, ids, IN_PROCESS_BASE);
};
const readsCpu = async (page: boolean) => {
  const batches = Math.ceil(requests / concurrency);
  const batchOf = () => Array.from({ length: concurrency }, () => slugs[next++ % slugs.length]!);
  for (let i = 0; i < 10; i++) await reads(batchOf(), page);
  const pg0 = postgresTicks();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < batches; i++) await reads(batchOf(), page);
  const cpu = process.cpuUsage(cpu0);
  return ((cpu.user + cpu.system) / concurrency + ((postgresTicks() - pg0) * 10_000) / concurrency) / batches;
};
const profileReads = await readsCpu(false);
const pageReads = await readsCpu(true);
const apiMiss = perRequest.get('long tail: get_listing')!;
console.log(
  `listing page reads beyond get_listing's: ${(pageReads - profileReads).toFixed(0)} µs CPU a slug (batches of ${concurrency}, no rendering): ` +
    `the page long tail can reach at most ${((100 * apiMiss) / (apiMiss + pageReads - profileReads)).toFixed(0)}% of get_listing's`,
);
await close();
process.exit(0);

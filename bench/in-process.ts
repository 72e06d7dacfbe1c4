import { IN_PROCESS_BASE, inProcessApp } from './in-process-app.ts';

/**
 * `bun bench/in-process.ts`: the edge's own cost per request, with no sockets and no load
 * generator: each scenario's warm requests go straight to the app's handler, one at a time, and
 * the mean CPU time per request is printed. On a busy or shared machine, where autocannon's figures
 * swing with the neighbours, this is the steadier way to compare two versions of the hot path.
 * BENCH_ITERATIONS (20000) per scenario. BENCH_CACHE=off runs every request through the database (the
 * CPU figure is then the edge's share only; wall time includes the database).
 */
const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const { db, handle, close } = await inProcessApp({ cacheTtlSeconds: process.env.BENCH_CACHE === 'off' ? 0 : 3600, connections: 10 });
const base = IN_PROCESS_BASE;

const [{ slug }] = await db.sql<{ slug: string }[]>`select slug from listings where site_id = ${db.siteId} and status = 'live' order by id limit 1`;
const mcp = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug } } });
const scenarios: [string, () => Request][] = [
  ['get_listing', () => new Request(`${base}/api/v1/listings/${slug}`)],
  ['get_listing (br)', () => new Request(`${base}/api/v1/listings/${slug}`, { headers: { 'accept-encoding': 'gzip, br' } })],
  ['leaderboard', () => new Request(`${base}/api/v1/leaderboards/community-all-time?page=2`)],
  ['search', () => new Request(`${base}/api/v1/listings?q=notse`)],
  ['launch week', () => new Request(`${base}/api/v1/launches/weeks/last`)],
  ['page: listing', () => new Request(`${base}/listings/${slug}`)],
  [
    'mcp tools/call',
    () =>
      new Request(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: mcp,
      }),
  ],
];
const only = process.env.BENCH_ONLY?.split(',');
for (const [name, make] of scenarios) {
  if (only && !only.includes(name)) continue;
  let bytes = 0;
  const send = async () => {
    const res = await handle(make());
    if (res.status >= 400) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    bytes = (await res.arrayBuffer()).byteLength;
  };
  for (let i = 0; i < 500; i++) await send();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) await send();
  const wall = (performance.now() - t0) / iterations;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${name.padEnd(20)} ${((cpu.user + cpu.system) / iterations).toFixed(1).padStart(7)} µs CPU  ${(wall * 1000).toFixed(1).padStart(7)} µs wall  ${String(bytes).padStart(7)} bytes`,
  );
}
await close();
process.exit(0);

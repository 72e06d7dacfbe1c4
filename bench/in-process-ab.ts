import { IN_PROCESS_BASE } from './in-process-app.ts';

/**
 * `bun bench/in-process-ab.ts <checkout>[=<database url>] ...`: the edges of several checkouts of
 * this repository (git worktrees, say one at an older commit) in ONE process, each on its bench
 * database, their warm cached requests alternated in blocks of BLOCK (3000) for ROUNDS (15) rounds.
 * A neighbour loading the machine then weighs on every version alike, which separate runs of
 * bench/in-process.ts cannot promise on a shared machine. Prints, per scenario and checkout, the
 * median CPU µs per request over the blocks, with the lowest and highest.
 * Without `=<url>` a checkout uses BENCH_DATABASE_URL (or its own embedded bench database, which
 * must then not be shared with another checkout of the run). ONLY=name,name limits the scenarios.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const BLOCK = Number(process.env.BLOCK ?? 3000);
const defaultUrl = process.env.BENCH_DATABASE_URL;

interface Edge {
  name: string;
  slug: string;
  handle: (r: Request) => Promise<Response>;
  close: () => Promise<void>;
}
const edges: Edge[] = [];
for (const arg of process.argv.slice(2)) {
  const [dir, url] = arg.split('=');
  if (url ?? defaultUrl) process.env.BENCH_DATABASE_URL = url ?? defaultUrl;
  else delete process.env.BENCH_DATABASE_URL;
  const { inProcessApp } = (await import(`${dir}/bench/in-process-app.ts`)) as typeof import('./in-process-app.ts');
  const app = await inProcessApp({ cacheTtlSeconds: 3600, connections: 4 });
  const [{ slug }] = await app.db.sql<{ slug: string }[]>`select slug from listings where site_id = ${app.db.siteId} and status = 'live' order by id limit 1`;
  edges.push({ name: dir.replace(/\/$/, '').split('/').pop()!, slug, handle: app.handle, close: app.close });
}

const base = IN_PROCESS_BASE;
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const scenarios: [string, (slug: string) => Request][] = [
  ['get_listing', (slug) => new Request(`${base}/api/v1/listings/${slug}`)],
  ['get_listing (gzip, br)', (slug) => new Request(`${base}/api/v1/listings/${slug}`, { headers: { 'accept-encoding': 'gzip, br' } })],
  ['leaderboard', () => new Request(`${base}/api/v1/leaderboards/community-all-time?page=2`)],
  ['search', () => new Request(`${base}/api/v1/listings?q=notse`)],
  ['launch week', () => new Request(`${base}/api/v1/launches/weeks/last`)],
  [
    'mcp tools/call',
    (slug) =>
      new Request(`${base}/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug } } }),
      }),
  ],
];

const only = process.env.ONLY?.split(',');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, make] of scenarios) {
  if (only && !only.includes(name)) continue;
  const perEdge: number[][] = edges.map(() => []);
  for (const e of edges) {
    // Warm: a first miss on a loaded machine may outlast the database guard's deadline (a 503), so
    // each edge is asked until it answers, then a thousand times more.
    for (let tries = 1; ; tries++) {
      const res = await e.handle(make(e.slug));
      if (res.status < 400) break;
      if (res.status !== 503 || tries === 20) throw new Error(`${e.name}, ${name}: ${res.status} ${await res.text()}`);
      await Bun.sleep(1000);
    }
    for (let i = 0; i < 1000; i++) await (await e.handle(make(e.slug))).arrayBuffer();
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < edges.length; k++) {
      const i = (k + round) % edges.length; // each round starts with another edge
      const e = edges[i]!;
      const cpu0 = process.cpuUsage();
      for (let n = 0; n < BLOCK; n++) await (await e.handle(make(e.slug))).arrayBuffer();
      const cpu = process.cpuUsage(cpu0);
      perEdge[i]!.push((cpu.user + cpu.system) / BLOCK);
    }
  }
  const cells = edges.map(
    (e, i) => `${e.name} ${median(perEdge[i]!).toFixed(1)} (${Math.min(...perEdge[i]!).toFixed(1)}-${Math.max(...perEdge[i]!).toFixed(1)})`,
  );
  console.log(`${name.padEnd(24)} ${cells.join('   ')}`);
}
for (const e of edges) await e.close().catch(() => {});
process.exit(0);

/**
 * A small closed-loop load generator for fault tests: `clients` loops each send one request after
 * another for `ms` milliseconds. It records every answer's status and latency (a network error or
 * a timeout counts as status 0), so a test can say "all 2xx and each under N ms".
 */
export interface LoadResult {
  count: number;
  statuses: Record<number, number>;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
}

export async function load(opts: { ms: number; clients: number; request: (i: number) => Promise<Response>; timeoutMs?: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const end = performance.now() + opts.ms;
  let i = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        let status = 0;
        try {
          const res = await Promise.race([
            opts.request(i++),
            Bun.sleep(opts.timeoutMs ?? 15_000).then(() => {
              throw new Error('timeout');
            }),
          ]);
          await res.arrayBuffer();
          status = res.status;
        } catch {
          status = 0;
        }
        latencies.push(performance.now() - t);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const took = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    count: latencies.length,
    statuses,
    p50: at(0.5),
    p99: at(0.99),
    max: Math.round(latencies.at(-1) ?? 0),
    perSecond: Math.round(latencies.length / (took / 1000)),
  };
}

export const fmt = (label: string, r: LoadResult) =>
  `${label}: ${r.count} requests, ${r.perSecond}/s, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, statuses ${JSON.stringify(r.statuses)}`;

export const mcpCall = (base: string, name: string, args: Record<string, unknown>, id = 1) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  });

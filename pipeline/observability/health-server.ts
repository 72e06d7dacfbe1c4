import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

/**
 * The worker's small HTTP port for probes and scrapes: /healthz (the process is alive), /readyz
 * (every check passes: the database answers, migrations are applied, Redis when configured) and
 * /metrics (Prometheus text). Nothing else is served.
 */
export function startHealthServer(opts: {
  port: number;
  host?: string;
  checks: ReadinessCheck[];
  registry: Registry;
  checkTimeoutMs?: number;
}): Promise<Server> {
  const timeout = opts.checkTimeoutMs ?? 2000;
  const run = async (c: ReadinessCheck) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        c.check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeout} ms`)), timeout);
        }),
      ]);
      return [c.name, 'ok'] as const;
    } catch (err) {
      return [c.name, err instanceof Error ? err.message : String(err)] as const;
    } finally {
      clearTimeout(timer);
    }
  };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    };
    if (req.method !== 'GET') return send(405, 'text/plain', 'GET only\n');
    if (path === '/healthz') return send(200, 'application/json', '{"ok":true}');
    if (path === '/readyz') {
      const results = Object.fromEntries(await Promise.all(opts.checks.map(run)));
      const ok = Object.values(results).every((r) => r === 'ok');
      return send(ok ? 200 : 503, 'application/json', JSON.stringify({ ok, checks: results }));
    }
    if (path === '/metrics') return send(200, opts.registry.contentType, await opts.registry.metrics());
    send(404, 'text/plain', 'not found\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve(server));
  });
}

import { loadConfig, type Config } from '../core/config.ts';
import type { Sql } from '../sql/db.ts';
import { startEdge } from '../api/server.ts';
import { ensureSite } from '../sql/site.ts';
import { freshDatabase } from './db.ts';
import { freePort } from './ports.ts';

export { freePort };

export interface TestApp {
  url: string;
  api: string;
  sql: Sql;
  config: Config;
  siteId: number;
  databaseUrl: string;
  /** `fetch` for this edge: through its port, or straight to its handler when it has none. */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  get(path: string, init?: RequestInit): Promise<Response>;
  json<T = any>(path: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * An edge against a fresh database. `prepare` runs before the edge starts (insert fixtures there,
 * or call a seed). Pass env to override configuration. `socket: false` (for tests that are not
 * about sockets) builds the same edge without a port: `fetch`, `get` and `json` go to its handler,
 * and `url` is only its SITE_URL, nothing listens there.
 */
export async function startTestApp(
  opts: { env?: Record<string, string>; prepare?: (sql: Sql, siteId: number) => Promise<void>; socket?: boolean } = {},
): Promise<TestApp> {
  const db = await freshDatabase();
  const socket = opts.socket !== false;
  const port = socket ? await freePort() : 9;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    // Test files make many requests from one address; rate-limit tests set their own budgets.
    RATE_LIMIT_ANONYMOUS_READS: '1000000',
    RATE_LIMIT_AUTHENTICATED_READS: '1000000',
    RATE_LIMIT_WRITES: '1000000',
    ...opts.env,
  });
  const site = await ensureSite(db.sql, config.siteKey, config.siteUrl);
  if (opts.prepare) await opts.prepare(db.sql, site.id);
  await db.sql`select refresh_directory_views()`;
  const edge = await startEdge(config, db.url, { listen: socket });
  const api = `${edge.url}/api/v1`;
  const get = (path: string, init?: RequestInit) => {
    const url = path.startsWith('http') ? path : `${api}${path}`;
    return socket ? fetch(url, init) : edge.handle(new Request(url, init));
  };
  // fetch follows redirects (unless told `redirect: 'manual'`); the handler answers them as they
  // are, so without a port they are followed here the same way, off this site through fetch.
  const viaHandler = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    let request = new Request(url, init);
    for (let hops = 0; ; hops++) {
      const res = await edge.handle(request);
      const location = res.headers.get('location');
      if (init?.redirect === 'manual' || !location || ![301, 302, 303, 307, 308].includes(res.status) || hops >= 20) return res;
      const next = new URL(location, request.url);
      if (next.origin !== new URL(request.url).origin) return fetch(next, { headers: init?.headers });
      request = res.status === 307 || res.status === 308 ? new Request(next, request) : new Request(next, { headers: request.headers });
    }
  };
  const send = (url: string | URL, init?: RequestInit) => (socket ? fetch(url, init) : viaHandler(url, init));
  return {
    url: edge.url,
    api,
    sql: db.sql,
    config,
    siteId: site.id,
    databaseUrl: db.url,
    fetch: send,
    get,
    async json(path, init) {
      const res = await get(path, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await edge.stop();
      await db.drop();
    },
  };
}

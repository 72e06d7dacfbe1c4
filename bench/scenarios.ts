import type { Request as CannonRequest } from 'autocannon';
import type { Sql } from '../sql/db.ts';
import { createSession } from '../core/auth/sessions.ts';

export interface Scenario {
  name: string;
  requests: CannonRequest[];
}

/** Rotates through many inputs so the cache serves a realistic mix of hits and misses. */
function rotating(paths: string[]): CannonRequest[] {
  let i = 0;
  return [
    {
      method: 'GET',
      setupRequest: (req: any) => {
        req.path = paths[i++ % paths.length];
        return req;
      },
    } as CannonRequest,
  ];
}

/** Deletes one inner letter: "notion" -> "notin". */
const typo = (w: string) => {
  const i = 1 + (w.length % (w.length - 2));
  return w.slice(0, i) + w.slice(i + 1);
};

export async function scenarios(sql: Sql, siteId: number): Promise<Scenario[]> {
  const slugs = (await sql`select slug from listings where site_id = ${siteId} and status = 'live' order by md5(slug) limit 2000`).map((r) => r.slug as string);
  const words = (await sql`select word from mv_search_words where length(word) >= 6 order by md5(word) limit 200`).map((r) => r.word as string);
  const mcpBody = (slug: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug } } });
  let m = 0;
  // Pages: anonymous requests share the cached render; a signed-in person's page is rendered for
  // them on every request (personal state never enters the shared cache), so a session cookie
  // measures the uncached render.
  const [u] =
    await sql`insert into users (email) values ('bench-pages@example.test') on conflict ((lower(email))) do update set email = excluded.email returning id`;
  const { id: sessionId } = await createSession(sql, String(u.id), 24);
  const signedIn = (paths: string[]): CannonRequest[] =>
    rotating(paths).map((r) => ({ ...r, headers: { cookie: `session=${sessionId}; __Host-session=${sessionId}` } }) as CannonRequest);
  const weeks = ['this', 'last', ...Array.from({ length: 10 }, (_, k) => new Date(Date.now() - (k + 2) * 7 * 86400e3).toISOString().slice(0, 10))];
  const pageSlugs = slugs.slice(0, 20);
  return [
    { name: 'page: home (cached)', requests: rotating(['/']) },
    { name: 'page: home uncached (signed in)', requests: signedIn(['/']) },
    { name: 'page: listing (cached)', requests: rotating(pageSlugs.map((s) => `/listings/${s}`)) },
    { name: 'page: listing uncached (signed in)', requests: signedIn(slugs.map((s) => `/listings/${s}`)) },
    { name: 'page: launch week (cached)', requests: rotating(weeks.map((w) => `/launches/weeks/${w}`)) },
    { name: 'page: launch week uncached (signed in)', requests: signedIn(weeks.map((w) => `/launches/weeks/${w}`)) },
    { name: 'get_listing', requests: rotating(slugs.map((s) => `/api/v1/listings/${s}`)) },
    { name: 'search (typo)', requests: rotating(words.map((w) => `/api/v1/listings?q=${encodeURIComponent(typo(w))}`)) },
    {
      name: 'leaderboard',
      requests: rotating(
        ['community-all-time', 'billboard', 'domain-rating', 'revenue', 'community-weekly'].flatMap((b) =>
          [1, 2, 3].map((p) => `/api/v1/leaderboards/${b}?page=${p}`),
        ),
      ),
    },
    {
      name: 'launch week',
      requests: rotating(
        ['this', 'last', ...Array.from({ length: 10 }, (_, k) => new Date(Date.now() - (k + 2) * 7 * 86400e3).toISOString().slice(0, 10))].map(
          (w) => `/api/v1/launches/weeks/${w}`,
        ),
      ),
    },
    {
      name: 'mcp tools/call',
      requests: [
        {
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          setupRequest: (req: any) => {
            req.body = mcpBody(slugs[m++ % slugs.length]);
            return req;
          },
        } as CannonRequest,
      ],
    },
  ];
}

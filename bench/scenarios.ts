import type { Request as CannonRequest } from 'autocannon';
import type { Sql } from '../sql/db.ts';
import { createSession } from '../core/auth/sessions.ts';

export interface Scenario {
  name: string;
  requests: CannonRequest[];
  /** 'cold': against a second edge with the response cache off (CACHE_TTL_SECONDS=0). */
  edge?: 'warm' | 'cold';
}

/** What real clients send: integrators' HTTP libraries and agents accept compressed bodies. */
const CLIENT_HEADERS = { 'accept-encoding': 'gzip, br' };

/** A small seeded generator: the same long tail every run. */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One typo of a word, as people make them: a letter changed, added or removed, or two swapped. */
export function oneTypo(rnd: () => number, w: string): string {
  const i = 1 + Math.floor(rnd() * (w.length - 2));
  const c = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)];
  switch (Math.floor(rnd() * 4)) {
    case 0:
      return w.slice(0, i) + c + w.slice(i + 1);
    case 1:
      return w.slice(0, i) + c + w.slice(i);
    case 2:
      return w.slice(0, i) + w.slice(i + 1);
    default:
      return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  }
}

/** n live names of the site, each with one typo in its longest word (of 4 letters or more). */
export async function oneTypoNames(sql: Sql, siteId: number, n: number, rnd: () => number): Promise<string[]> {
  const names = (await sql`select distinct lower(name) as name from listings where site_id = ${siteId} and status = 'live' order by 1 limit 20000`).map(
    (r) => r.name as string,
  );
  return Array.from({ length: n }, () => {
    const name = names[Math.floor(rnd() * names.length)]!;
    const longest = name.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a));
    return longest.length >= 4 ? name.replace(longest, oneTypo(rnd, longest)) : name;
  });
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** Each request draws its call from `next`: a mix of methods and paths on one connection pool. */
function drawn(next: () => Call): CannonRequest[] {
  return [
    {
      method: 'GET',
      headers: CLIENT_HEADERS,
      setupRequest: (req: any) => {
        const call = next();
        req.method = call.method;
        req.path = call.path;
        req.body = call.body;
        req.headers = call.body
          ? { ...CLIENT_HEADERS, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }
          : CLIENT_HEADERS;
        return req;
      },
    } as CannonRequest,
  ];
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
  const words = (await sql`select word from search_words where length(word) >= 6 order by md5(word) limit 200`).map((r) => r.word as string);
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
  // The long tail: every live slug, uniformly (most requests miss the cache), and distinct one-typo
  // names, enough that a 10-second run at a few thousand searches a second asks none of them twice
  // (with 5,000, a run past 500 a second came back to them within the cache's 10 s and measured hits).
  const allSlugs = (await sql`select slug from listings where site_id = ${siteId} and status = 'live' order by md5(slug)`).map((r) => r.slug as string);
  const rnd = prng(1);
  const uniform = () => allSlugs[Math.floor(rnd() * allSlugs.length)]!;
  const pageRnd = prng(2);
  const typoQueries = [...new Set(await oneTypoNames(sql, siteId, 100_000, rnd))];
  let tq = 0;
  const typoSearch = () => `/api/v1/listings?q=${encodeURIComponent(typoQueries[tq++ % typoQueries.length]!)}`;
  const categorySlugs = (await sql`select slug from categories order by slug`).map((r) => r.slug as string);
  const boards = ['community-all-time', 'billboard', 'domain-rating', 'revenue', 'community-weekly'];
  const weekIds = ['this', 'last', ...Array.from({ length: 10 }, (_, k) => new Date(Date.now() - (k + 2) * 7 * 86400e3).toISOString().slice(0, 10))];
  // Traffic as it arrives: mostly listings, then search, then the directory's lists, and agents.
  const mixed = (): Call => {
    const r = rnd();
    const any = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
    if (r < 0.4) return { method: 'GET', path: `/api/v1/listings/${uniform()}` };
    if (r < 0.6) return { method: 'GET', path: typoSearch() };
    if (r < 0.7) return { method: 'GET', path: `/api/v1/launches/weeks/${any(weekIds)}` };
    if (r < 0.78) return { method: 'GET', path: `/api/v1/leaderboards/${any(boards)}?page=${1 + Math.floor(rnd() * 3)}` };
    if (r < 0.86) return { method: 'GET', path: rnd() < 0.2 ? '/api/v1/categories' : `/api/v1/categories/${any(categorySlugs)}` };
    return { method: 'POST', path: '/mcp', body: mcpBody(uniform()) };
  };
  const realistic: Scenario[] = [
    { name: 'long tail: get_listing (all slugs)', requests: drawn(() => ({ method: 'GET', path: `/api/v1/listings/${uniform()}` })) },
    { name: 'long tail: search (one-typo names)', requests: drawn(() => ({ method: 'GET', path: typoSearch() })) },
    { name: 'mixed traffic', requests: drawn(mixed) },
    { name: 'cold (cache off): mixed traffic', requests: drawn(mixed), edge: 'cold' },
    { name: 'cold (cache off): get_listing', requests: drawn(() => ({ method: 'GET', path: `/api/v1/listings/${uniform()}` })), edge: 'cold' },
  ];
  const weeks = ['this', 'last', ...Array.from({ length: 10 }, (_, k) => new Date(Date.now() - (k + 2) * 7 * 86400e3).toISOString().slice(0, 10))];
  const pageSlugs = slugs.slice(0, 20);
  const hot: Scenario[] = [
    { name: 'page: home (cached)', requests: rotating(['/']) },
    { name: 'page: home uncached (signed in)', requests: signedIn(['/']) },
    { name: 'page: listing (cached)', requests: rotating(pageSlugs.map((s) => `/listings/${s}`)) },
    { name: 'page: listing uncached (signed in)', requests: signedIn(slugs.map((s) => `/listings/${s}`)) },
    { name: 'page: launch week (cached)', requests: rotating(weeks.map((w) => `/launches/weeks/${w}`)) },
    { name: 'page: launch week uncached (signed in)', requests: signedIn(weeks.map((w) => `/launches/weeks/${w}`)) },
    { name: 'get_listing', requests: rotating(slugs.map((s) => `/api/v1/listings/${s}`)) },
    // Pictures from our own origin: a stored logo (or initials tile) per card, the share image crawlers fetch (stored once rendered).
    { name: 'logo (cached)', requests: rotating(slugs.map((s) => `/logos/${s}/128.png`)) },
    { name: 'share image (cached)', requests: rotating(slugs.map((s) => `/share/${s}.png`)) },
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
  // The same reads against the edge with its response cache off: what a miss costs, scenario by scenario.
  const cold = hot
    .filter((s) => ['search (typo)', 'leaderboard', 'launch week', 'mcp tools/call'].includes(s.name))
    .map((s): Scenario => ({ ...s, name: `cold (cache off): ${s.name}`, edge: 'cold' }));
  const pagesTail: Scenario[] = [
    // The page a search engine or a visitor lands on, over every live slug: mostly renders, each
    // with the listing, its alternatives, badges, reviews and updates, and a counted view.
    // Last of all: rendering pages of 100k listings takes the edge to about 270 MB, which the
    // scenarios after it would inherit (placed before mixed traffic, that scenario's peak was 256
    // MB, against 215-238 without). Its own generator, so the others draw what they drew before.
    {
      name: 'long tail: listing page (all slugs)',
      requests: drawn(() => ({ method: 'GET', path: `/listings/${allSlugs[Math.floor(pageRnd() * allSlugs.length)]}` })),
    },
  ];
  return [...realistic, ...hot, ...cold, ...pagesTail];
}

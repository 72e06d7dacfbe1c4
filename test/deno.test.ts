import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freshDatabase } from './db.ts';
import { eventually } from './eventually.ts';
import { freePort } from './harness.ts';
import { makeCategory, makeCompany, makeListing } from './builders.ts';

// The edge is web-standard only, so it also runs on Deno: start it there and call a few operations.
const root = join(import.meta.dirname, '..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
let deno: ChildProcess;
let base: string;

beforeAll(async () => {
  db = await freshDatabase();
  const c = await makeCompany(db.sql, { name: 'Denoly', domain: 'denoly.test' });
  const cat = await makeCategory(db.sql, { slug: 'runtimes', name: 'Runtimes' });
  await db.sql`insert into sites (key, name, url, is_self) values ('main', 'Launchpad Directory', 'http://localhost', true)`;
  const [site] = await db.sql`select id from sites where key = 'main'`;
  await makeListing(db.sql, {
    siteId: site.id,
    companyId: c.id,
    slug: 'denoly',
    name: 'Denoly',
    columns: { primary_category_id: cat.id, tagline: 'A runtime tester' },
  });
  await db.sql`select refresh_directory_views()`;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  deno = spawn(join(root, 'node_modules/.bin/deno'), ['run', '-A', 'api/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', SITE_URL: base, LOG_LEVEL: 'warn', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  deno.stderr!.on('data', (d) => {
    err += d;
  });
  let out = '';
  deno.stdout!.on('data', (d) => {
    out += d;
  });
  const started = await eventually(
    async () => {
      if (deno.exitCode !== null) throw new Error(`Deno exited ${deno.exitCode}: ${err}`);
      return out.includes('edge listening');
    },
    Boolean,
    { tries: 900, everyMs: 100 },
  );
  if (!started) throw new Error(`Deno edge did not start: ${err}`);
}, 120_000);

afterAll(async () => {
  if (deno && deno.exitCode === null) {
    const exited = new Promise((r) => deno.once('exit', r));
    deno.kill('SIGTERM');
    await exited;
  }
  await db.drop();
});

test('the edge answers under Deno', async () => {
  const res = await fetch(`${base}/api/v1/site`);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.counts.live_listings).toBe(1);
  expect(body.urls.mcp).toBe(`${base}/mcp`);
  expect(res.headers.get('etag')).toBeTruthy();
});

test('OpenAPI, validation problems and 404s work under Deno', async () => {
  expect((await fetch(`${base}/api/v1/openapi.json`)).status).toBe(200);
  const bad = await fetch(`${base}/api/v1/site?x=1`);
  expect(bad.status).toBe(400);
  expect(bad.headers.get('content-type')).toBe('application/problem+json');
  const missing = await fetch(`${base}/api/v1/nothing-here`);
  expect(missing.status).toBe(404);
});

test('listing reads and an MCP tool call work under Deno', async () => {
  const listing = await (await fetch(`${base}/api/v1/listings/denoly`)).json();
  expect(listing.name).toBe('Denoly');
  const search = await (await fetch(`${base}/api/v1/listings?q=denoyl`)).json();
  expect(search.items.map((i: { slug: string }) => i.slug)).toEqual(['denoly']);
  for (const q of ['denolly', 'dnoly', 'denloy']) {
    const again = await (await fetch(`${base}/api/v1/listings?q=${q}`)).json();
    expect({ q, slugs: again.items.map((i: { slug: string }) => i.slug) }).toEqual({ q, slugs: ['denoly'] });
  }
  const categories = await (await fetch(`${base}/api/v1/categories`)).json();
  expect(categories.items[0].slug).toBe('runtimes');
  // The public pages are JSX: Deno must compile them with Preact's runtime too.
  const page = await fetch(`${base}/listings/denoly`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<h1>Denoly</h1>');
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug: 'denoly' } } }),
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const json = text.startsWith('{')
    ? JSON.parse(text)
    : JSON.parse(
        text
          .split('\n')
          .find((l) => l.startsWith('data:'))!
          .slice(5),
      );
  expect(json.result.structuredContent).toEqual(listing);
});

test('credentials, rate-limit headers, sign-in pages and OAuth metadata work under Deno', async () => {
  const { findOrCreateUser } = await import('../core/auth/users.ts');
  const { createApiKey } = await import('../core/auth/api-keys.ts');
  const user = await findOrCreateUser(db.sql, 'deno@example.com');
  const key = await createApiKey(db.sql, { userId: user.id, name: 'deno', scopes: ['account:read', 'listings:write'] });
  const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${key.secret}` } });
  expect(me.status).toBe(200);
  expect((await me.json()).user.email).toBe('deno@example.com');
  expect(me.headers.get('ratelimit-policy')).toContain('"authenticated_read"');
  const anon = await fetch(`${base}/api/v1/me`);
  expect(anon.status).toBe(401);
  expect(anon.headers.get('www-authenticate')).toContain('resource_metadata=');
  const signIn = await fetch(`${base}/sign-in`);
  expect(signIn.status).toBe(200);
  expect(await signIn.text()).toContain('name="csrf"');
  const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
  expect(as.code_challenge_methods_supported).toEqual(['S256']);
  const submitted = await fetch(`${base}/api/v1/drafts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json', 'idempotency-key': 'deno-1' },
    // Another product: denoly.test is listed already (one public listing per product and site).
    body: JSON.stringify({ url: 'https://denoly-next.test' }),
  });
  expect(submitted.status).toBe(201);
  expect((await submitted.json()).status).toBe('crawling');
});

// generated hostile bodies thrown at every operation of the registry, through REST and
// through MCP, and at every form of the site. Fails on any 5xx and on any stored change (row
// counts and a hash of a few tables, before and after).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { SCOPES } from '../../core/auth/scopes.ts';
import { operations } from '../../api/registry/index.ts';
import { OAUTH_PATHS } from '../../api/oauth/endpoints.ts';
import { makeApiKey, makeListing } from '../builders.ts';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';

let app: TestApp;
let key = '';
let slug = '';
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      slug = (await makeListing(sql, { siteId })).slug;
    },
  });
  const u = await findOrCreateUser(app.sql, 'fuzz@example.com');
  key = await makeApiKey(app.sql, u, [...SCOPES], 'fuzz');
});
afterAll(() => app.stop());

/** Hostile values as raw JSON text (so duplicate keys, escaped lone surrogates and depth survive). */
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const VALUES: string[] = [
  nested(50_000),
  `{"a":${nested(40)}}`,
  JSON.stringify(new Array(5_000).fill(0)),
  JSON.stringify('x'.repeat(200_000)),
  '"a\\ud800b"',
  '"\\udc00"',
  '"a\\u0000b"',
  '{"\\u0000":1}',
  'null',
  'true',
  '-1e309',
  '{}',
  '[{}]',
  '"javascript:alert(1)"',
];
/** Whole bodies, for the root. */
const ROOTS: string[] = [nested(50_000), '"\\ud800"', '[1]', '{"a":1,"a":"x"}', `{${Array.from({ length: 2_000 }, (_, i) => `"k${i}":1`).join(',')}}`];

/** Bodies for an operation: its own fields set to each hostile value, and duplicate keys of a real field. */
function bodies(props: string[]): string[] {
  const out = [...ROOTS];
  for (const name of props) {
    for (const v of VALUES) out.push(`{"${name}":${v}}`);
    out.push(`{"${name}":"https://example.com/","${name}":"a\\u0000"}`);
  }
  return out;
}

const fingerprint = async (): Promise<Record<string, unknown>> =>
  (
    await app.sql`
    select (select count(*) from drafts)::int as drafts, (select count(*) from listings)::int as listings,
           (select count(*) from draft_invites)::int as invites, (select count(*) from mail_outbox)::int as mail,
           (select count(*) from api_keys)::int as api_keys, (select count(*) from oauth_clients)::int as clients,
           (select md5(coalesce(string_agg(l::text, ',' order by l.id), '')) from listings l) as listings_hash,
           (select md5(coalesce(string_agg(d::text, ',' order by d.id), '')) from drafts d) as drafts_hash`
  )[0];

const pathOf = (path: string) => path.replace(/\{([a-z_]+)\}/g, (_, p: string) => (p === 'slug' ? slug : p.endsWith('id') ? '1' : 'x'));

test('every operation, through REST and MCP: hostile bodies are answered without a 5xx and change nothing', async () => {
  const before = await fingerprint();
  const failures: string[] = [];
  let sent = 0;
  for (const op of operations) {
    const props = [...Object.keys(op.body?.properties ?? {}), ...Object.keys(op.query?.properties ?? {})];
    for (const body of bodies(props)) {
      if (op.method !== 'GET') {
        const res = await app.fetch(`${app.api}${pathOf(op.path)}`, {
          method: op.method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        });
        sent++;
        if (res.status >= 500) failures.push(`REST ${op.name} ${body.slice(0, 60)} -> ${res.status}`);
        await res.arrayBuffer();
      }
      const mcp = await app.fetch(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${op.name}","arguments":${body}}}`,
      });
      sent++;
      const text = await mcp.text();
      if (mcp.status >= 500 || /"status":\s*5\d\d/.test(text)) failures.push(`MCP ${op.name} ${body.slice(0, 60)} -> ${mcp.status} ${text.slice(0, 120)}`);
    }
  }
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThan(1_000);
  expect(await fingerprint()).toEqual(before);
});

test('every form: NUL, invalid Unicode, oversized and repeated fields are answered without a 5xx and change nothing', async () => {
  const c = new WebClient(app.url, app.fetch);
  await signInWithClient(c, app.sql, 'fuzz-forms@example.com');
  const before = await fingerprint();
  const csrf = await c.csrf('/account/api-keys');
  const forms = [
    '/sign-in',
    '/sign-in/verify',
    '/sign-out',
    '/account/api-keys',
    '/account/api-keys/1/revoke',
    '/account/connections/1/revoke',
    '/invites/ldi_x',
    '/claims/confirm/x',
    '/unsubscribe/x',
    '/checkout/1/billing',
    '/checkout/1/pay',
    '/checkout/1/test-pay',
    `/listings/${slug}/vote`,
    `/listings/${slug}/follow`,
    `/listings/${slug}/review`,
    '/reviews/1/flag',
    OAUTH_PATHS.authorize,
    OAUTH_PATHS.token,
    OAUTH_PATHS.revoke,
  ];
  const hostile: Record<string, string | string[]>[] = [
    { name: 'a\u0000', email: 'a\u0000@example.com', body: 'x\u0000' },
    { name: 'a\uD800b', email: '\uDC00@example.com', body: '\uD800' },
    { name: 'x'.repeat(100_000) },
    { name: ['a', 'b', 'c'], email: ['javascript:alert(1)', 'a@example.com'] },
    { email: 'javascript:alert(1)', url: 'javascript:alert(1)', rating: '-1e309', scopes: 'account:read' },
  ];
  const failures: string[] = [];
  for (const path of forms) {
    for (const fields of hostile) {
      const res = await c.post(path, { csrf, ...fields });
      if (res.status >= 500) failures.push(`${path} ${JSON.stringify(fields).slice(0, 60)} -> ${res.status}`);
      await res.arrayBuffer();
    }
    const multipart = new FormData();
    multipart.append('csrf', csrf);
    multipart.append('name', 'a\uD800b');
    const res = await app.fetch(new URL(path, app.url), {
      method: 'POST',
      body: multipart,
      headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: app.url },
    });
    if (res.status >= 500) failures.push(`${path} multipart -> ${res.status}`);
    await res.arrayBuffer();
  }
  const json = await app.fetch(`${app.url}${OAUTH_PATHS.register}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"client_name":"a\\ud800","redirect_uris":${nested(50_000)}}`,
  });
  if (json.status >= 500) failures.push(`register -> ${json.status}`);
  await json.arrayBuffer();
  expect(failures).toEqual([]);
  expect(await fingerprint()).toEqual(before);
});

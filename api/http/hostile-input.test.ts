import { afterAll, beforeAll, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { operations } from '../registry/index.ts';
import { signInWithClient, WebClient } from '../../test/browser.ts';
import { makeApiKey } from '../../test/builders.ts';

// Every operation, fed hostile input through the real REST route with a full-scope key: the
// answer is always a 4xx problem (never a 5xx), and the database holds nothing new afterwards.
const HOSTILE: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  true,
  '',
  ' ',
  'x'.repeat(30_000),
  '\u0000',
  'ä\u202e🙂',
  '../../etc/passwd',
  '<script>',
  "' or 1=1 --",
  [],
  [null],
  [{}],
  {},
  { a: { b: { c: [] } } },
  '2026-02-30',
  'https://10.0.0.1/',
  'not a url',
  '00000000-0000-0000-0000-000000000000',
];
const PATH_VALUES = ['0', '-1', '%00', 'x'.repeat(300), '1.5', 'ä', '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '99999999999999999999'];

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ socket: false });
  const u = await findOrCreateUser(app.sql, 'hostile@example.com');
  key = await makeApiKey(app.sql, u, ['account:read', 'listings:write', 'orders:write'], 'all');
});
afterAll(() => app.stop());

const counts = async () => (await app.sql`select (select count(*) from drafts)::int as drafts, (select count(*) from listings)::int as listings`)[0];

test('hostile path, query and body values never produce a 5xx and create nothing', async () => {
  const before = await counts();
  let requests = 0;
  for (const op of operations) {
    const props = { ...(op.query?.properties ?? {}), ...(op.body?.properties ?? {}) };
    const paths = op.params ? PATH_VALUES.map((v) => op.path.replace(/\{[a-z_]+\}/g, encodeURIComponent(v).replace(/%25/g, '%'))) : [op.path];
    for (const path of paths) {
      const variants: { query?: string; body?: string }[] = [{}];
      for (const name of Object.keys(props)) {
        for (const v of HOSTILE) {
          // Query strings stay under Bun's own URL limit (past it Bun answers 431 before any handler).
          if (op.query?.properties?.[name])
            variants.push({ query: `${name}=${encodeURIComponent(typeof v === 'string' ? v.slice(0, 4000) : JSON.stringify(v))}` });
          if (op.body) variants.push({ body: JSON.stringify({ [name]: v }) });
        }
      }
      if (op.body) variants.push({ body: '{"unterminated' }, { body: '[1,2,3]' }, { body: '"text"' }, { body: JSON.stringify({ unknown_key: 1 }) });
      for (const v of variants.slice(0, op.params ? 3 : undefined)) {
        const res = await app.fetch(`${app.api}${path}${v.query ? `?${v.query}` : ''}`, {
          method: op.method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: op.method === 'GET' ? undefined : (v.body ?? (op.body ? '{}' : undefined)),
        });
        requests++;
        if (res.status >= 500) throw new Error(`${op.name} ${op.method} ${path} ${JSON.stringify(v).slice(0, 200)} -> ${res.status} ${await res.text()}`);
        if (res.status >= 400 && res.headers.get('content-type') !== 'application/problem+json')
          throw new Error(`${op.name} ${path} ${JSON.stringify(v).slice(0, 120)} -> ${res.status} without a problem body`);
        await res.arrayBuffer();
      }
    }
  }
  expect(requests).toBeGreaterThan(500);
  const made = await app.sql`select url from drafts`;
  expect([await counts(), made.map((r) => r.url)]).toEqual([before, []]);
});

test('the NUL character on pages, OAuth endpoints and badges is a 400, never a 5xx', async () => {
  const c = new WebClient(app.url, app.fetch);
  await signInWithClient(c, app.sql, 'nul@example.com');
  const csrf = await c.csrf('/account/api-keys');
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const answers: [string, number][] = [];
  const probe = async (label: string, res: Response) => {
    answers.push([label, res.status]);
    await res.arrayBuffer();
  };
  await probe(
    'authorize',
    await app.fetch(`${app.url}/oauth/authorize?client_id=%00&redirect_uri=%00&response_type=code&code_challenge=%00&code_challenge_method=S256`),
  );
  await probe(
    'token',
    await app.fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: form,
      body: 'grant_type=authorization_code&code=ldc_%00&client_id=%00&code_verifier=%00',
    }),
  );
  await probe(
    'refresh',
    await app.fetch(`${app.url}/oauth/token`, { method: 'POST', headers: form, body: 'grant_type=refresh_token&refresh_token=ldr_%00&client_id=%00' }),
  );
  await probe('revoke', await app.fetch(`${app.url}/oauth/revoke`, { method: 'POST', headers: form, body: 'token=lda_%00&client_id=%00' }));
  await probe(
    'register',
    await app.fetch(`${app.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'a\u0000b', redirect_uris: ['https://x.example/cb'] }),
    }),
  );
  await probe('sign-in', await c.post('/sign-in', { email: 'a\u0000@example.com', csrf }));
  await probe('verify', await c.get('/sign-in/verify?token=ldl_%00'));
  await probe('api key', await c.post('/account/api-keys', { name: 'a\u0000', scopes: 'account:read', csrf }));
  await probe('invite', await c.get('/invites/ldi_%00'));
  await probe('badge', await app.fetch(`${app.url}/badges/%00/standard-light-m.svg`));
  expect(answers.filter(([, status]) => status !== 400)).toEqual([]);
});

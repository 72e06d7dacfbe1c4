// Dynamic client registration is open to anyone, so one address registers a bounded number of
// clients an hour (counted in PostgreSQL), then gets a 429 with Retry-After and a code.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { OAUTH_REGISTRATIONS_PER_HOUR: '3', TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await app?.stop();
});

const register = (from: string) =>
  fetch(`${app.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ client_name: 'Agent', redirect_uris: ['https://agent.example/cb'] }),
  });

test('past the hourly cap an address gets 429 registration_rate_limited with Retry-After; other addresses are not affected', async () => {
  for (let i = 0; i < 3; i++) expect((await register('203.0.113.7')).status).toBe(201);
  const over = await register('203.0.113.7');
  expect(over.status).toBe(429);
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await over.json()).toMatchObject({ status: 429, code: 'registration_rate_limited' });
  expect((await register('198.51.100.9')).status).toBe(201);
  // An hour later the address may register again.
  await app.sql`update oauth_clients set created_at = created_at - interval '1 hour' where registered_from = '203.0.113.7'`;
  expect((await register('203.0.113.7')).status).toBe(201);
});

test('concurrent registrations cannot pass the cap together', async () => {
  const results = await Promise.all(Array.from({ length: 8 }, () => register('192.0.2.44')));
  expect(results.filter((r) => r.status === 201)).toHaveLength(3);
  expect(results.filter((r) => r.status === 429)).toHaveLength(5);
});

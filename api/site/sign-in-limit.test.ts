import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { WebClient } from '../../test/browser.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_WRITES: '3' } });
});
afterAll(() => app.stop());

test("sign-in requests spend the address's write budget: past it, a 429 page and no mail", async () => {
  const c = new WebClient(app.url);
  const res = await c.get('/sign-in');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())![1];
  for (let i = 0; i < 3; i++) expect((await c.post('/sign-in', { email: `limit${i}@example.test`, csrf })).status).toBe(200);
  const refused = await c.post('/sign-in', { email: 'limit9@example.test', csrf });
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused.headers.get('ratelimit-policy')).toBe('"write";q=3;w=60');
  const [{ n }] = await app.sql`select count(*)::int as n from mail_outbox where to_address = 'limit9@example.test'`;
  expect(n).toBe(0);
});

test("page views spend the address's read budget", async () => {
  const limited = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS_READS: '3' } });
  try {
    for (let i = 0; i < 3; i++) expect((await fetch(`${limited.url}/sign-in`)).status).toBe(200);
    const refused = await fetch(`${limited.url}/sign-in`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  } finally {
    await limited.stop();
  }
});

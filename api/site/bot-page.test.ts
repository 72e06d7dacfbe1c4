import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false, env: { CRAWLER_USER_AGENT: 'ExampleBot/2.0 (+http://x.test/bot)' } });
});
afterAll(() => app.stop());

test('the crawler contact page names the user agent and the robots.txt token', async () => {
  const res = await app.get(`${app.url}/bot`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  const text = await res.text();
  expect(text).toContain('ExampleBot/2.0 (+http://x.test/bot)');
  expect(text).toContain('User-agent: ExampleBot\nDisallow: /');
});

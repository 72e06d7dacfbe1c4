import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// /mcp holds chunked bodies to the same cap as declared ones, and its Origin check
// compares scheme, host and port.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

test('a chunked body past the cap is a 413 problem, a small chunked body is served', async () => {
  const cap = app.config.maxBodyBytes;
  const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
  const big = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(LIST.slice(0, -1)));
      for (let sent = 0; sent <= cap * 2; sent += chunk.byteLength) controller.enqueue(chunk);
      controller.enqueue(new TextEncoder().encode('}'));
      controller.close();
    },
  });
  const res = await fetch(`${app.url}/mcp`, { method: 'POST', headers, body: big, duplex: 'half' } as RequestInit);
  expect(res.headers.get('content-type')).toContain('problem+json');
  expect(res.status).toBe(413);
  await res.arrayBuffer();

  const small = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(LIST));
      controller.close();
    },
  });
  const ok = await fetch(`${app.url}/mcp`, { method: 'POST', headers, body: small, duplex: 'half' } as RequestInit);
  expect(ok.status).toBe(200);
  expect(await ok.text()).toContain('search_listings');
});

test('Origin must match scheme, host and port', async () => {
  const own = new URL(app.url);
  const other = (u: string) => fetch(`${app.url}/mcp`, { method: 'POST', headers: { ...headers, origin: u }, body: LIST });
  const answers: [string, number][] = [];
  for (const origin of [`${own.protocol}//${own.hostname}:${Number(own.port) + 1}`, `https://${own.host}`, 'https://elsewhere.test', 'null', app.url]) {
    const res = await other(origin);
    await res.arrayBuffer();
    answers.push([origin, res.status]);
  }
  expect(answers.map(([, s]) => s)).toEqual([403, 403, 403, 403, 200]);
});

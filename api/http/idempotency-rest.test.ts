import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makeApiKey } from '../../test/builders.ts';

// Idempotency-Key through the real REST route and MCP tool of an idempotent write (submit_listing).
describe('Idempotency-Key on submit_listing', () => {
  let app: TestApp;
  let ann: string;
  let bob: string;
  beforeAll(async () => {
    app = await startTestApp({ socket: false });
    const a = await findOrCreateUser(app.sql, 'ann@idem.example');
    const b = await findOrCreateUser(app.sql, 'bob@idem.example');
    ann = await makeApiKey(app.sql, a, ['account:read', 'listings:write'], 'a');
    bob = await makeApiKey(app.sql, b, ['account:read', 'listings:write'], 'b');
  });
  afterAll(() => app.stop());

  const submit = (secret: string, url: string, idem: string | null) =>
    app.get(`${app.api}/drafts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...(idem === null ? {} : { 'idempotency-key': idem }) },
      body: JSON.stringify({ url }),
    });
  const draftsFor = async (url: string) => (await app.sql`select count(*)::int as n from drafts where url like ${url + '%'}`)[0].n as number;

  test('a retry replays the first response; one draft is made', async () => {
    const first = await submit(ann, 'https://replay.example', 'key-1');
    expect(first.status).toBe(201);
    const body = await first.text();
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await submit(ann, 'https://replay.example', 'key-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(body);
    expect(await draftsFor('https://replay.example')).toBe(1);
  });

  test('the same key with another body is 422; a malformed key is 400 naming the header', async () => {
    await submit(ann, 'https://one.example', 'key-2');
    const other = await submit(ann, 'https://two.example', 'key-2');
    expect(other.status).toBe(422);
    expect((await other.json()).type).toBe(`${app.url}/problems/unprocessable`);
    expect(await draftsFor('https://two.example')).toBe(0);
    const bad = await submit(ann, 'https://three.example', 'x'.repeat(300));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0]).toMatchObject({ field: 'Idempotency-Key', in: 'header' });
  });

  test('concurrent retries with one key make exactly one draft; the others replay it or are told to wait', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => submit(ann, 'https://race.example', 'key-race')));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status === 409)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await draftsFor('https://race.example')).toBe(1);
  });

  test("keys belong to the account: another account's same key runs anew", async () => {
    const a = await (await submit(ann, 'https://shared.example', 'key-3')).json();
    const b = await (await submit(bob, 'https://shared.example', 'key-3')).json();
    expect(b.id).not.toBe(a.id);
    expect(await draftsFor('https://shared.example')).toBe(2);
  });

  test('without a key every call runs', async () => {
    await submit(ann, 'https://nokey.example', null);
    await submit(ann, 'https://nokey.example', null);
    expect(await draftsFor('https://nokey.example')).toBe(2);
  });

  test('MCP: the idempotency_key argument replays the same draft', async () => {
    const call = async () => {
      const res = await app.get(`${app.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ann}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'submit_listing', arguments: { url: 'https://mcp-idem.example', idempotency_key: 'mcp-key' } },
        }),
      });
      const text = await res.text();
      return JSON.parse(
        text.startsWith('{')
          ? text
          : text
              .split('\n')
              .find((l) => l.startsWith('data: '))!
              .slice(6),
      ).result.structuredContent;
    };
    const first = await call();
    const second = await call();
    expect(second.id).toBe(first.id);
    expect(await draftsFor('https://mcp-idem.example')).toBe(1);
  });
});

import { afterAll, beforeAll, expect, test } from 'bun:test';
import { DomainError } from '../../core/errors/index.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { operations } from '../registry/index.ts';
import { validateInput } from './validate.ts';

// fields typed as what they are, and shapes no validator can walk refused
// with a 400 before one tries. The validator is the one REST and MCP share.

const op = (name: string) => operations.find((o) => o.name === name)!;
const DRAFT = { id: '00000000-0000-4000-8000-000000000000' };
const refused = (name: string, body: unknown, path: Record<string, unknown> = DRAFT): string[] => {
  try {
    validateInput(op(name), { path, body }, { convert: true });
    return [];
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return err.fields.map((f) => f.field).sort();
  }
};

test('update_draft takes URLs, e-mails and social links only as what they are', () => {
  const hostile = {
    fields: { logo_url: 'javascript:alert(1)', demo_video_url: 'https://evil.example/v.mp4', contact_email: 'not an address' },
    company_socials: { linkedin: 'javascript:alert(1)', x: 'https://evil.example/', website: 'any text' },
    founder_socials: { github: 'https://gitlab.com/a', custom: 'data:text/html,x' },
    milestones: [{ date: '2026-01-05', title: 'Launch', url: 'http://example.com/plain-http' }],
  };
  expect(refused('update_draft', hostile)).toEqual(
    [
      'fields.logo_url',
      'fields.demo_video_url',
      'fields.contact_email',
      'company_socials.linkedin',
      'company_socials.x',
      'company_socials.website',
      'founder_socials.github',
      'founder_socials.custom',
      'milestones[0].url',
    ].sort(),
  );
  const fine = {
    fields: { logo_url: 'https://cdn.example.com/logo.png', demo_video_url: 'https://www.youtube.com/watch?v=x', contact_email: 'hi@example.com' },
    company_socials: { linkedin: 'https://www.linkedin.com/company/acme', x: 'https://twitter.com/acme', website: 'http://acme.example' },
    founder_socials: { github: 'https://github.com/ada', custom: 'https://ada.example/about' },
    milestones: [{ date: '2026-01-05', title: 'Launch', url: 'https://example.com/launch' }],
  };
  expect(refused('update_draft', fine)).toEqual([]);
  // Blank still deletes.
  expect(refused('update_draft', { fields: { logo_url: '', contact_email: ' ', demo_video_url: null }, company_socials: { x: '' } })).toEqual([]);
});

test('update_my_listing and invite_cofounder hold to the same rules', () => {
  const listing = { listing_id: 1 };
  expect(
    refused(
      'update_my_listing',
      { fields: { demo_video_url: 'https://evil.example/v', contact_email: 'x' }, socials: { linkedin: 'https://evil.example/' } },
      listing,
    ),
  ).toEqual(['fields.contact_email', 'fields.demo_video_url', 'socials.linkedin']);
  expect(
    refused('update_my_listing', { fields: { demo_video_url: 'https://vimeo.com/1' }, socials: { linkedin: 'https://linkedin.com/in/a' } }, listing),
  ).toEqual([]);
  expect(refused('invite_cofounder', { email: 'javascript:alert(1)' })).toEqual(['email']);
});

test('deep nesting, lone surrogates and NUL are field errors, not a crash of the validator', () => {
  let deep: unknown = [];
  for (let i = 0; i < 50_000; i++) deep = [deep];
  expect(refused('update_draft', { fields: { name: deep } })).toHaveLength(1);
  expect(refused('update_draft', { fields: { name: 'a\uD800b' } })).toEqual(['fields.name']);
  expect(refused('update_draft', { fields: { name: 'a\u0000b' } })).toEqual(['fields.name']);
  expect(refused('search_listings', {}, {})).toEqual([]);
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false });
});
afterAll(() => app.stop());

const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

test('50,000 nested arrays through /mcp without a credential and through REST are a 400, never a 5xx', async () => {
  const call = (args: string) =>
    app.get(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_listings","arguments":${args}}}`,
    });
  const res = await call(`{"q":${nested(50_000)}}`);
  const text = await res.text();
  expect(res.status).toBeLessThan(500);
  expect(text).toContain('nested deeper');
  const rest = await app.get(`${app.api}/drafts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"url":${nested(50_000)}}` });
  expect(rest.status).toBeLessThan(500);
  await rest.arrayBuffer();
});

test('a lone surrogate escaped in JSON is a 400 naming the field', async () => {
  const res = await app.get(`${app.api}/listings?q=%ED%A0%80`);
  expect(res.status).toBeLessThan(500);
  await res.arrayBuffer();
  const mcp = await app.get(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_listings","arguments":{"q":"a\\ud800"}}}',
  });
  const text = await mcp.text();
  expect(mcp.status).toBe(200);
  expect(text).toContain('surrogate');
});

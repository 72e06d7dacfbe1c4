// The draft operations around one ready draft: co-founder invites, other accounts, and MCP.
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { draftsEnv, opOutput, settled } from './env.ts';

const { env, call, until } = draftsEnv({ socket: false });

let draftId = '';
beforeAll(async () => {
  draftId = (await call('POST', '/drafts', { url: env.site.url })).body.id;
  await until(draftId, settled, 'ready');
}, 60_000);

describe('invite_cofounder', () => {
  test('ten addresses are invited (mail with a single-use link), the eleventh is refused', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await call('POST', `/drafts/${draftId}/invites`, { email: `cofounder${i}@example.com` });
      expect(res.status).toBe(201);
      conforms(opOutput('invite_cofounder'), res.body);
      expect(res.body).toMatchObject({ draft_id: draftId, email: `cofounder${i}@example.com`, status: 'pending' });
      expect(JSON.stringify(res.body)).not.toContain('ldi_');
    }
    const eleventh = await call('POST', `/drafts/${draftId}/invites`, { email: 'cofounder11@example.com' });
    expect(eleventh.status).toBe(409);
    // The same address again is a fresh link, not another invite.
    expect((await call('POST', `/drafts/${draftId}/invites`, { email: 'COFOUNDER3@example.com' })).status).toBe(201);
    const mail = await env.app.sql`select to_address, subject, body_text from mail_outbox where kind = 'cofounder_invite' order by id`;
    expect(mail).toHaveLength(11);
    expect(mail[0].body_text).toMatch(new RegExp(`${env.app.config.siteUrl}/invites/ldi_[A-Za-z0-9_-]{43}`));
    const draft = await call('GET', `/drafts/${draftId}`);
    expect(draft.body.invites).toHaveLength(10);
  });

  test('bad addresses are a 400', async () => {
    for (const email of ['not-an-email', `${'a'.repeat(250)}@example.com`, '']) {
      expect((await call('POST', `/drafts/${draftId}/invites`, { email })).status).toBe(400);
    }
    expect((await call('POST', `/drafts/${draftId}/invites`, { email: 'a@example.com', name: 'A' })).status).toBe(400);
  });
});

describe("another account's draft", () => {
  test('is not found on every operation; so is an id that is not a UUID', async () => {
    const ops: [string, string, unknown?][] = [
      ['GET', `/drafts/${draftId}`],
      ['PATCH', `/drafts/${draftId}`, { fields: { name: 'Mine now' } }],
      ['POST', `/drafts/${draftId}/invites`, { email: 'x@example.com' }],
      ['POST', `/drafts/${draftId}/submit`],
    ];
    for (const [method, path, body] of ops) {
      const res = await call(method, path, body, 'other');
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      expect((await call('GET', `/drafts/${bad}`)).status).toBe(404);
      expect((await call('PATCH', `/drafts/${bad}`, {})).status).toBe(404);
      expect((await call('POST', `/drafts/${bad}/submit`)).status).toBe(404);
    }
    const { body } = await call('GET', `/drafts/${draftId}`);
    expect(body.fields.name.value).not.toBe('Mine now');
  });
});

describe('MCP', () => {
  test('submit_listing and get_draft work as tools with an API key', async () => {
    const client = new McpClient({ name: 'drafts-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.app.url}/mcp`), {
        fetch: env.app.fetch,
        requestInit: { headers: { authorization: `Bearer ${env.keys.owner}` } },
      }),
    );
    try {
      const made: any = await client.callTool({ name: 'submit_listing', arguments: { url: env.site.url } });
      expect(made.isError).toBeFalsy();
      expect(made.structuredContent).toMatchObject({ status: 'crawling', url: env.site.url });
      const got: any = await client.callTool({ name: 'get_draft', arguments: { id: made.structuredContent.id } });
      expect(got.structuredContent.id).toBe(made.structuredContent.id);
      const bad: any = await client.callTool({ name: 'update_draft', arguments: { id: made.structuredContent.id, fields: { colour: 'red' } } });
      expect(bad.isError).toBe(true);
      await until(made.structuredContent.id, settled, 'ready');
    } finally {
      await client.close();
    }
  }, 60_000);
});

// Input that deceives: bidirectional control characters make a line display in another order
// than it is stored (refused in single-line fields, removed from long text), and a URL with a
// user name in it shows one host and opens another (refused in every URL field).
import { beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { callMcpTool } from '../mcp-call.ts';

const { env, call } = ownersEnv({ socket: false });
let id = 0;
beforeAll(async () => {
  id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, status: 'live', name: 'Straight' });
});
const RLO = '\u202E';

describe('bidirectional control characters', () => {
  test('are refused in single-line fields on REST and MCP, naming the field', async () => {
    for (const fields of [{ tagline: `Safe${RLO}exe.pdf` }, { headline: `a\u2066b` }, { features: ['ok', `x${RLO}y`] }]) {
      const res = await call('PATCH', `/me/listings/${id}`, { fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.errors[0].message).toContain('bidirectional control characters');
    }
    const res = await call('PATCH', `/me/listings/${id}`, { fields: { tagline: `Safe${RLO}exe.pdf` } });
    expect(res.body.errors.map((e: any) => e.field)).toEqual(['fields.tagline']);
    const viaMcp = await callMcpTool(env.app, env.keys.owner, 'update_my_listing', { listing_id: id, fields: { tagline: `Safe${RLO}exe.pdf` } });
    expect([viaMcp.isError, viaMcp.body.status]).toEqual([true, 400]);
    expect(viaMcp.body.errors.map((e: any) => e.field)).toEqual(['fields.tagline']);
    expect((await env.app.sql`select tagline from listings where id = ${id}`)[0].tagline).toBeNull();
  });

  test('are removed from long text', async () => {
    const res = await call('PATCH', `/me/listings/${id}`, { fields: { description: `We read ${RLO}txt.exe${'\u202C'} files.` } });
    expect(res.status).toBe(200);
    expect((await env.app.sql`select description from listings where id = ${id}`)[0].description).toBe('We read txt.exe files.');
  });
});

describe('URLs with a user name or password', () => {
  test('are refused in milestone links (REST and MCP), socials and the demo video', async () => {
    const m = await call('POST', `/me/listings/${id}/milestones`, { date: '2025-01-06', title: 'Launch', url: 'https://ledgerly.example@evil.example/' });
    expect([m.status, m.body.errors?.[0]?.field]).toEqual([400, 'url']);
    const viaMcp = await callMcpTool(env.app, env.keys.owner, 'add_milestone', {
      listing_id: id,
      date: '2025-01-06',
      title: 'Launch',
      url: 'https://user:pw@evil.example/',
    });
    expect([viaMcp.isError, viaMcp.body.status]).toEqual([true, 400]);
    for (const body of [{ socials: { x: 'https://x.com@evil.example/a' } }, { fields: { demo_video_url: 'https://youtube.com:pw@evil.example/v' } }]) {
      expect((await call('PATCH', `/me/listings/${id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await env.app.sql`select 1 from milestones where listing_id = ${id}`).toHaveLength(0);
    expect((await call('POST', `/me/listings/${id}/milestones`, { date: '2025-01-06', title: 'Launch', url: 'https://ledgerly.example/launch' })).status).toBe(
      201,
    );
  });
});

// Writes that reach another site's listing: two edges (two SITE_KEYs) on one database, two
// accounts and one shared domain. Sharing a domain is not owning, and a draft that could not be
// read (or holds nothing) cannot become a listing to start from.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { callMcpTool } from '../mcp-call.ts';
import { freePort } from '../harness.ts';
import { loadConfig } from '../../core/config.ts';
import { ensureSite } from '../../sql/site.ts';
import { startEdge } from '../../api/server.ts';

const { env, call } = ownersEnv({ socket: false });
let sister: { url: string; fetch(url: string): Promise<Response>; stop(): Promise<void> };
let sisterSiteId = 0;
const ids = { victimSister: 0, victimMain: 0, attacker: 0 };

beforeAll(async () => {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_KEY: 'sister',
    SITE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    ALLOW_LOOPBACK_FETCH: 'true',
  });
  sisterSiteId = (await ensureSite(env.app.sql, config.siteKey, config.siteUrl)).id;
  const edge = await startEdge(config, env.app.databaseUrl, { listen: false });
  sister = { url: edge.url, fetch: (url) => edge.handle(new Request(url)), stop: () => edge.stop() };
  const { sql, siteId } = env.app;
  // The victim ("owner") lists Ledgerly on the sister site; the attacker ("other") gets a listing of the same domain on main.
  ids.victimSister = await makeListing(sql, {
    siteId: sisterSiteId,
    userId: env.userIds.owner,
    url: 'https://ledgerly.example/',
    name: 'Ledgerly',
    status: 'live',
  });
  await sql`update listings set headline = 'Books that balance themselves' where id = ${ids.victimSister}`;
  ids.attacker = await makeListing(sql, { siteId, userId: env.userIds.other, url: 'https://ledgerly.example/', name: 'Ledgerly' });
}, 120_000);
afterAll(async () => {
  await sister?.stop();
});

const sisterHeadline = async () => (await env.app.sql`select headline from listings where id = ${ids.victimSister}`)[0].headline;

describe('apply_to reaches only listings the caller owns', () => {
  test('REST: a target owned by someone else is 403 naming its site, and nothing is written anywhere', async () => {
    for (const applyTo of [['sister'], ['all']]) {
      const res = await call(
        'PATCH',
        `/me/listings/${ids.attacker}`,
        { fields: { headline: 'Scam: send crypto here', city: 'Nowhere' }, apply_to: applyTo },
        'other',
      );
      expect(res.status, JSON.stringify(applyTo)).toBe(403);
      expect(res.body.code).toBe('apply_to_not_owned');
      expect(res.body.detail).toContain('(sister)');
      expect(res.body.errors.map((e: any) => e.field)).toEqual(['apply_to']);
    }
    expect(await sisterHeadline()).toBe('Books that balance themselves');
    const [own] = await env.app.sql`select headline, city from listings where id = ${ids.attacker}`;
    expect(own).toEqual({ headline: null, city: null });
    expect(await env.app.sql`select 1 from listing_versions where listing_id in (${ids.attacker}, ${ids.victimSister})`).toHaveLength(0);
    // The sister site's own edge serves the victim's words.
    const page = await (
      await sister.fetch(`${sister.url}/api/v1/listings/${(await env.app.sql`select slug from listings where id = ${ids.victimSister}`)[0].slug}`)
    ).json();
    expect(page.headline).toBe('Books that balance themselves');
  });

  test('MCP: the same refusal as a tool error', async () => {
    const got = await callMcpTool(env.app, env.keys.other, 'update_my_listing', {
      listing_id: ids.attacker,
      fields: { headline: 'Scam again' },
      apply_to: ['sister'],
    });
    expect(got.isError).toBe(true);
    expect(got.body).toMatchObject({ status: 403, code: 'apply_to_not_owned' });
    expect(await sisterHeadline()).toBe('Books that balance themselves');
  });

  test('the owner of both listings still carries fields across', async () => {
    ids.victimMain = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url: 'https://ledgerly.example/', name: 'Ledgerly' });
    const res = await call('PATCH', `/me/listings/${ids.victimMain}`, { fields: { headline: 'Balanced books' }, apply_to: ['sister'] });
    expect(res.status).toBe(200);
    expect(res.body.applied_to).toEqual([{ site: 'sister', listing_id: ids.victimSister, fields: ['headline'] }]);
    expect(await sisterHeadline()).toBe('Balanced books');
  });
});

describe('submit_draft needs a draft with something in it', () => {
  const draftOf = async (status: string, fields: Record<string, unknown>) => {
    const [d] = await env.app.sql<{ id: string }[]>`
      insert into drafts (site_id, user_id, url, domain, status, failure_reason, fields)
      values (${env.app.siteId}, ${env.userIds.other}, 'https://ledgerly.example/', 'ledgerly.example', ${status},
              ${status === 'failed' ? 'unreachable' : null}, ${env.app.sql.json(fields as never)})
      returning id::text`;
    return d.id;
  };

  test('a failed draft and an empty one are 409 draft_not_ready on REST and MCP, and make no listing', async () => {
    const before = (await env.app.sql`select count(*)::int as n from listings`)[0].n;
    const failed = await draftOf('failed', {});
    const empty = await draftOf('ready', { name: { value: '  ', state: 'edited', evidence: [], ai: null } });
    for (const id of [failed, empty]) {
      const res = await call('POST', `/drafts/${id}/submit`, undefined, 'other');
      expect([res.status, res.body.code]).toEqual([409, 'draft_not_ready']);
      expect(res.body.detail).toMatch(/cannot be submitted/);
      const got = await callMcpTool(env.app, env.keys.other, 'submit_draft', { id });
      expect([got.isError, got.body.code]).toEqual([true, 'draft_not_ready']);
    }
    expect((await env.app.sql`select count(*)::int as n from listings`)[0].n).toBe(before);
    const named = await draftOf('ready', { name: { value: 'Ledgerly Two', state: 'edited', evidence: [], ai: null } });
    expect((await call('POST', `/drafts/${named}/submit`, undefined, 'other')).status).toBe(200);
  });
});

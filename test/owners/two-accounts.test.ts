// Two accounts, one product. The second account submits the already listed product, tries to
// claim it through a redirect to its own host, tries apply_to on listings that are not its own,
// and tries to publish a copy; every step is refused with a clear problem and nothing changes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { page, startOwnerSite, type OwnerSite } from '../owner-site.ts';
import { callMcpTool } from '../mcp-call.ts';
import { freePort } from '../harness.ts';
import { loadConfig } from '../../core/config.ts';
import { startEdge } from '../../api/server.ts';
import { ensureSite } from '../../sql/site.ts';

let product: OwnerSite;
let attackerSite: OwnerSite;
let sister: { stop(): Promise<void> };
beforeAll(() => {
  product = startOwnerSite('127.0.0.1');
  attackerSite = startOwnerSite('127.0.0.2');
});
afterAll(async () => {
  product?.stop();
  attackerSite?.stop();
  await sister?.stop();
});

const { env, call } = ownersEnv({ socket: false });
const ids = { real: 0, realSister: 0, stale: 0 };
let slug = '';
let staleDraft = '';

beforeAll(async () => {
  const { sql, siteId } = env.app;
  const port = await freePort();
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', SITE_KEY: 'sister', SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'silent' });
  const sisterId = (await ensureSite(sql, 'sister', config.siteUrl)).id;
  const edge = await startEdge(config, env.app.databaseUrl, { listen: false });
  sister = { stop: () => edge.stop() };
  // The real maker ("owner") lists Ledgerly on both sites.
  ids.real = await makeListing(sql, { siteId, userId: env.userIds.owner, url: product.url, name: 'Ledgerly', status: 'live' });
  ids.realSister = await makeListing(sql, { siteId: sisterId, userId: env.userIds.owner, url: product.url, name: 'Ledgerly', status: 'live' });
  await sql`update listings set headline = 'The real headline' where id in (${ids.real}, ${ids.realSister})`;
  slug = (await sql`select slug from listings where id = ${ids.real}`)[0].slug;
  // A copy the second account drafted before the real one went public.
  ids.stale = await makeListing(sql, { siteId, userId: env.userIds.other, url: product.url, name: 'Ledgerly' });
  staleDraft = (await sql`select id::text from drafts where listing_id = ${ids.stale}`)[0].id;
  await sql`update drafts set fields = ${sql.json({ name: { value: 'Ledgerly', state: 'edited', evidence: [], ai: null } } as never)} where id = ${staleDraft}`;
}, 120_000);

const snapshot = async () =>
  env.app.sql`select id::int, owner_user_id::text as owner, status, headline, name from listings where id in (${ids.real}, ${ids.realSister}) order by id`;

describe('a second account cannot copy, take over or overwrite a listed product', () => {
  test('every step is refused with a clear problem, and nothing changes', async () => {
    const before = await snapshot();

    // 1. Submitting the listed product again (REST, a variant of its URL, and MCP).
    for (const url of [product.url, `${product.url}pricing`]) {
      const res = await call('POST', '/drafts', { url }, 'other');
      expect([res.status, res.body.code], url).toEqual([409, 'listing_exists']);
      expect(res.body.detail).toContain(`/listings/${slug}`);
      expect(res.body.detail).toContain('claim');
      expect(res.body.existing_listing).toMatchObject({ slug, name: 'Ledgerly' });
      expect(res.body.claim).toEqual({ operation: 'claim_listing', method: 'POST', path: '/api/v1/claims', body: { slug } });
    }
    const viaMcp = await callMcpTool(env.app, env.keys.other, 'submit_listing', { url: product.url });
    expect([viaMcp.isError, viaMcp.body.status, viaMcp.body.code]).toEqual([true, 409, 'listing_exists']);
    // The copy drafted earlier cannot be submitted or published either.
    const submitted = await call('POST', `/drafts/${staleDraft}/submit`, undefined, 'other');
    expect([submitted.status, submitted.body.code]).toEqual([409, 'listing_exists']);
    const queued = await call('POST', `/me/listings/${ids.stale}/free`, undefined, 'other');
    expect([queued.status, queued.body.code]).toEqual([409, 'listing_exists']);

    // 2. Claiming it through a redirect to a host the second account controls.
    const made = await call('POST', '/claims', { slug, method: 'meta' }, 'other');
    expect(made.status).toBe(201);
    product.redirects.set('/', attackerSite.url);
    attackerSite.home = page('<h1>Mine</h1>', made.body.instructions.meta.tag);
    const verified = await call('POST', `/claims/${made.body.id}/verify`, undefined, 'other');
    expect(verified.body).toMatchObject({ status: 'pending', last_check: { reason: 'site_refused' } });
    expect(verified.body.last_check.detail).toContain('another host');

    // 3. apply_to from the real listing (not theirs: 404) and from the stale copy (403 naming the site).
    const direct = await call('PATCH', `/me/listings/${ids.real}`, { fields: { headline: 'Hijacked' }, apply_to: ['all'] }, 'other');
    expect([direct.status, direct.body.code]).toEqual([404, 'not_found']);
    const across = await call('PATCH', `/me/listings/${ids.stale}`, { fields: { headline: 'Hijacked' }, apply_to: ['sister'] }, 'other');
    expect([across.status, across.body.code]).toEqual([403, 'apply_to_not_owned']);
    expect(across.body.detail).toContain('(sister)');

    expect(await snapshot()).toEqual(before);
    expect(await env.app.sql`select 1 from ownership_events`).toHaveLength(0);
    expect(await env.app.sql`select 1 from listing_versions where listing_id in (${ids.real}, ${ids.realSister})`).toHaveLength(0);
    expect(await env.app.sql`select 1 from listings where owner_user_id = ${env.userIds.other} and status <> 'draft'`).toHaveLength(0);
  });

  test('the real owner can still edit and resubmit; the problem page lists listing_exists', async () => {
    const res = await call('PATCH', `/me/listings/${ids.real}`, { fields: { headline: 'Still mine' }, apply_to: ['sister'] });
    expect(res.status).toBe(200);
    expect(res.body.applied_to).toEqual([{ site: 'sister', listing_id: ids.realSister, fields: ['headline'] }]);
    // Submitting the owner's own draft again updates the public listing: it is not a copy of itself.
    const [own] = await env.app.sql`select id::text from drafts where listing_id = ${ids.real}`;
    await env.app
      .sql`update drafts set fields = ${env.app.sql.json({ name: { value: 'Ledgerly', state: 'edited', evidence: [], ai: null } } as never)} where id = ${own.id}`;
    expect((await call('POST', `/drafts/${own.id}/submit`)).status).toBe(200);
    const problems = await (await env.app.fetch(`${env.app.url}/problems/conflict`)).text();
    expect(problems).toContain('listing_exists');
  });
});

// A co-owner of a listing (company_owners, role co_owner) buys for it exactly as its owner does,
// over REST and MCP; a stranger still gets the 404 of an unknown listing.
import { beforeAll, describe, expect, test } from 'bun:test';
import { callMcpTool } from '../mcp-call.ts';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { ordersEnv } from './env.ts';

const { env, call, listing } = ordersEnv({ socket: false });
let stranger = '';

beforeAll(async () => {
  const u = await findOrCreateUser(env.app.sql, 'stranger@example.com');
  stranger = (await createApiKey(env.app.sql, { userId: u.id, name: 't', scopes: ['account:read', 'orders:write'] })).secret;
});

/** A listing of "owner" whose company "other" co-owns (as an e-mail claim or a later proof makes them). */
async function coOwned(spec: Parameters<typeof listing>[0] = {}): Promise<number> {
  const id = await listing(spec);
  await env.app.sql`insert into company_owners (company_id, user_id, role) select company_id, ${env.userIds.other}, 'co_owner' from listings where id = ${id}`;
  return id;
}

const asStranger = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  env.app.json(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${stranger}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('a co-owner buys for the listing', () => {
  test('REST: the same quote as the owner, and a checkout of their own', async () => {
    const id = await coOwned({ status: 'live', plan: 'paid' });
    const body = { items: [{ product: 'featured', listing_id: id }], billing_country: 'US' };
    const owners = await call('POST', '/orders/quote', body, 'owner');
    const coOwners = await call('POST', '/orders/quote', body, 'other');
    expect(owners.status).toBe(200);
    expect([coOwners.status, coOwners.body]).toEqual([200, owners.body]);

    const made = await call('POST', '/orders/checkout', body, 'other', { 'idempotency-key': crypto.randomUUID() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.checkout_url).toBeString();
    const [order] = await env.app.sql`select user_id::text from orders where number = ${made.body.number}`;
    expect(order.user_id).toBe(env.userIds.other);
    expect((await call('GET', `/orders/${made.body.number}`, undefined, 'other')).status).toBe(200);
  });

  test('MCP: quote_order and create_checkout for a launch of a co-owned draft', async () => {
    const id = await coOwned();
    const items = [{ product: 'launch', listing_id: id }];
    const quoted = await callMcpTool(env.app, env.keys.other, 'quote_order', { items });
    expect(quoted.isError, JSON.stringify(quoted.body)).toBe(false);
    expect(quoted.body.lines[0]).toMatchObject({ product: 'launch', listing_id: id });
    const made = await callMcpTool(env.app, env.keys.other, 'create_checkout', { items });
    expect(made.isError, JSON.stringify(made.body)).toBe(false);
    expect(made.body.checkout_url).toBeString();
  });

  test('a stranger still cannot: 404 on REST and MCP, as for an unknown listing', async () => {
    const id = await coOwned({ status: 'live', plan: 'paid' });
    const body = { items: [{ product: 'featured', listing_id: id }] };
    for (const res of [await asStranger('/orders/quote', body), await asStranger('/orders/checkout', body, { 'idempotency-key': crypto.randomUUID() })]) {
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    const viaMcp = await callMcpTool(env.app, stranger, 'create_checkout', body);
    expect([viaMcp.isError, viaMcp.body.code]).toEqual([true, 'not_found']);
    // A co-owner removed is a stranger again.
    await env.app.sql`delete from company_owners where user_id = ${env.userIds.other}`;
    expect((await call('POST', '/orders/quote', body, 'other')).status).toBe(404);
  });
});

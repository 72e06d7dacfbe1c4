// An agent's walk through MCP with the official client, arguments built only from what tools/list
// says: find a product by a misspelled name, read it, submit a website, poll the draft, fill a
// field the site did not state (and the categories, by display name), submit the draft, price a
// launch, create the checkout and hand its link to the person. Every call succeeds on its first
// try: each argument object passes the tool's input schema before it is sent, and no call is an error.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { loadReferenceData } from '../../seeds/reference.ts';
import { makeListing } from '../builders.ts';
import { startFixtureSite, type FixtureSite } from '../fixture-site.ts';
import { ownersEnv } from '../owners/env.ts';

let site: FixtureSite;
beforeAll(() => {
  site = startFixtureSite();
});
afterAll(() => site?.stop());

const { env, until } = ownersEnv({
  socket: false,
  worker: true,
  prepare: async (sql, siteId) => {
    await loadReferenceData(sql, siteId);
    await makeListing(sql, { siteId, slug: 'relaydesk', name: 'Relaydesk', columns: { tagline: 'The help desk that answers itself' } });
  },
});

interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

let client: Client;
let tools: Tool[] = [];
beforeAll(async () => {
  // The person gave the agent a key for their account with the scopes the journey needs.
  const { secret } = await createApiKey(env.app.sql, { userId: env.userIds.owner, name: 'agent', scopes: ['account:read', 'listings:write', 'orders:write'] });
  client = new Client({ name: 'agent-walk', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.app.url}/mcp`), { fetch: env.app.fetch, requestInit: { headers: { authorization: `Bearer ${secret}` } } }),
  );
  tools = (await client.listTools()).tools as Tool[];
}, 60_000);
afterAll(() => client?.close());

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const calls: { tool: string; args: Record<string, unknown>; error: string | null }[] = [];

/** One tool call as an agent makes it: arguments checked against the listed schema first, then sent once. */
async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const tool = tools.find((t) => t.name === name);
  expect({ tool: name, listed: Boolean(tool?.title && tool.description) }).toEqual({ tool: name, listed: true });
  const validate = ajv.compile(tool!.inputSchema);
  expect({ tool: name, args, schema: validate(args) ? 'passes' : validate.errors }).toEqual({ tool: name, args, schema: 'passes' });
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: any;
  };
  calls.push({ tool: name, args, error: result.isError ? result.content[0]!.text : null });
  expect({ tool: name, error: result.isError ? result.content[0]!.text : null }).toEqual({ tool: name, error: null });
  return result.structuredContent;
}

/** A value for a profile field the site did not state, in the format its description asks for. */
const FILL: Record<string, string> = {
  founded_year: '2021',
  city: 'Lisbon',
  country: 'PT',
  stage: 'Beta',
  pricing_model: 'Freemium',
  pricing_summary: 'Free for one notebook; 8 USD a month for teams.',
  contact_email: 'hello@lumennotes.example',
  demo_video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  logo_url: 'https://lumennotes.example/logo.png',
  tagline: 'Notes that link themselves',
};

test('an agent goes from a misspelled product name to a checkout link, every call right the first time', async () => {
  // Find a product by a misspelled name, then read it by the slug the search gave.
  const found = await call('search_listings', { q: 'Relaydsk' });
  const hit = found.items.find((i: { name: string }) => i.name === 'Relaydesk');
  expect(hit).toBeDefined();
  const listing = await call('get_listing', { slug: hit.slug });
  expect(listing.tagline).toBe('The help desk that answers itself');

  // Submit a website and poll the draft until the service has read and drafted it.
  const made = await call('submit_listing', { url: site.url, idempotency_key: crypto.randomUUID() });
  expect(made.status).toBe('crawling');
  const draft = await until(
    () => call('get_draft', { id: made.id }),
    (d) => d.status === 'ready' || d.status === 'failed',
    'a drafted draft',
    60_000,
  );
  expect(draft.status).toBe('ready');

  // A field the site did not state: filled in the format its description gives. Draft categories
  // take a slug or a display name (list_categories) and answer both; search filters take the slug.
  const missing = Object.entries(draft.fields as Record<string, { state: string | null }>)
    .filter(([k, f]) => f.state === 'not_found' && k in FILL)
    .map(([k]) => k);
  expect(missing.length).toBeGreaterThan(0);
  const field = missing[0]!;
  // What the texts say, and this walk follows: drafts take slugs or names, searches slugs.
  const schemaOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema as { properties: Record<string, any> };
  expect(schemaOf('update_draft').properties.fields.properties.categories.description).toContain('Names or slugs from list_categories');
  expect(schemaOf('search_listings').properties.category.description).toContain('slug from list_categories (not its display name)');
  const categories = await call('list_categories', {});
  const category = categories.items[0];
  const updated = await call('update_draft', {
    id: draft.id,
    fields: { [field]: FILL[field], categories: [category.slug] },
    idempotency_key: crypto.randomUUID(),
  });
  expect(updated.fields[field]).toMatchObject({ state: 'manual' });
  expect(updated.fields.categories).toMatchObject({ value: [category.name], slugs: [category.slug] });

  // Submit it, then price a paid launch in a bookable week and create the checkout.
  const submitted = await call('submit_draft', { id: draft.id, idempotency_key: crypto.randomUUID() });
  expect(typeof submitted.listing_id).toBe('number');
  const products = await call('list_products', {});
  const launch = products.items.find((p: { code: string }) => p.code === 'launch');
  // An order item's week is a Monday from the product's weeks, as its description says.
  expect(schemaOf('create_checkout').properties.items.items.properties.week.description).toContain("A Monday (YYYY-MM-DD) from the product's `weeks`");
  const items = [{ product: launch.code, listing_id: submitted.listing_id, week: launch.weeks[1] }];
  const quote = await call('quote_order', { items, billing_country: 'PT' });
  expect(quote.total_cents).toBeGreaterThan(0);
  const order = await call('create_checkout', { items, billing_country: 'PT', idempotency_key: crypto.randomUUID() });
  expect(order).toMatchObject({ status: 'pending', total_cents: quote.total_cents });

  // The hand-over: the person opens checkout_url and pays there; the agent can follow the order.
  expect(order.checkout_url).toStartWith(`${env.app.config.siteUrl}/checkout/`);
  const page = await env.app.fetch(order.checkout_url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(order.number);
  expect((await call('get_order', { number: order.number })).status).toBe('pending');

  // Each call went through once, none was answered with an error.
  expect(calls.filter((c) => c.error)).toEqual([]);
  expect(new Set(calls.map((c) => c.tool))).toEqual(
    new Set([
      'search_listings',
      'get_listing',
      'submit_listing',
      'get_draft',
      'list_categories',
      'update_draft',
      'submit_draft',
      'list_products',
      'quote_order',
      'create_checkout',
      'get_order',
    ]),
  );
}, 120_000);

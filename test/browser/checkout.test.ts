// A person pays in Chromium: an AI agent makes the checkout through MCP (create_checkout), the
// person opens checkout_url, signs in, fills billing details, pays on the test provider's page;
// get_order then shows the order paid and fulfilled, and the listing is live in get_launch_week.
import { expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { launchBrowser, signInWithBrowser } from '../browser.ts';
import { until } from '../eventually.ts';
import { ordersEnv } from '../orders/env.ts';

const { env, listing } = ordersEnv({ worker: true });

async function mcp() {
  const client = new Client({ name: 'checkout-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${env.app.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${env.keys.owner}` } },
    }),
  );
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any; content: { text: string }[] };
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
    return r.structuredContent ?? JSON.parse(r.content[0].text);
  };
  return { client, tool };
}

test('create_checkout through MCP, pay in Chromium on the test provider, fulfilled and live', async () => {
  const id = await listing();
  const slug = (await env.app.sql`select slug from listings where id = ${id}`)[0].slug as string;
  const agent = await mcp();
  const browser = await launchBrowser();
  try {
    const order = await agent.tool('create_checkout', { items: [{ product: 'launch', listing_id: id }], idempotency_key: crypto.randomUUID() });
    expect(order).toMatchObject({ status: 'pending', test_mode: true });

    const context = await browser.newContext();
    const page = await context.newPage();
    const path = new URL(order.checkout_url).pathname;
    await signInWithBrowser(page, { baseUrl: env.app.url, sql: env.app.sql, email: 'owner@example.com', returnTo: path });
    expect(new URL(page.url()).pathname).toBe(path);
    await expect(page.locator('#test-mode').isVisible()).resolves.toBe(true);
    expect(await page.locator('#total').textContent()).toContain('49.00 USD');

    await page.getByLabel('Name or company').fill('Ada Lovelace');
    await page.getByLabel('Address').fill('Kurfürstendamm 1, Berlin');
    await page.getByLabel('Country (two letters, e.g. DE)').fill('DE');
    await page.getByRole('button', { name: 'Save billing details and update VAT' }).click();
    await page.waitForURL((u) => u.search.includes('billing=saved'));
    expect(await page.locator('#vat').textContent()).toContain('9.31 USD');
    expect(await page.locator('#total').textContent()).toContain('58.31 USD');
    await expect(page.locator('#test-mode').isVisible()).resolves.toBe(true);

    await page.locator('#pay').click();
    await page.waitForURL((u) => u.pathname.endsWith('/test-pay'));
    await expect(page.locator('#test-mode').isVisible()).resolves.toBe(true);
    expect(await page.locator('#test-total').textContent()).toContain('58.31 USD');
    await page.locator('#test-pay').click();
    await page.waitForURL((u) => u.pathname === path && u.search.includes('paid=1'));

    const done = await until('the order fulfilled', async () => {
      const o = await agent.tool('get_order', { number: order.number });
      return o.status === 'fulfilled' && o;
    });
    expect(done).toMatchObject({ status: 'fulfilled', total_cents: 5831, vat_cents: 931, vat: { rule: 'domestic' } });
    expect(done.lines[0].fulfilment.status).toBe('fulfilled');
    expect(done.paid_at).not.toBeNull();

    await page.reload();
    expect(await page.locator('#order-status').textContent()).toBe('fulfilled');
    await expect(page.locator('#test-mode').isVisible()).resolves.toBe(true);

    await until("the listing in this week's launches", async () => {
      const week = await agent.tool('get_launch_week', { week: 'this' });
      return week.items.some((i: any) => (i.listing?.slug ?? i.slug) === slug);
    });
    await context.close();
  } finally {
    await agent.client.close();
    await browser.close();
  }
}, 180_000);

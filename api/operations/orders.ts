// The order operations (quote, checkout, list, get): schemas in orders-schemas.ts, logic in core/orders/.
import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation, type OperationContext, type Principal } from '../registry/operation.ts';
import { ListOf, Paging } from '../registry/schemas.ts';
import { NumberPath, Order, OrderBody, Quote } from './orders-schemas.ts';
import { priceOrder, type OrderBody as Body, type OrderScope } from '../../core/orders/price-items.ts';
import { createCheckout } from '../../core/orders/checkout.ts';
import { listOrders, orderView, ownOrder } from '../../core/orders/store.ts';
import { paymentProvider } from '../../core/payments/index.ts';
import { viesFromConfig } from '../../core/orders/vies.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { ordersExamples } from './orders-examples.ts';

const notes = (...lines: string[]) => lines.join('\n\n');
const scope = (ctx: OperationContext): OrderScope => ({
  sql: ctx.sql,
  siteId: ctx.site.id,
  userId: (ctx.principal as Principal).userId,
  sellerCountry: ctx.config.orders.sellerCountry,
  vies: viesFromConfig(ctx.config),
});

const RULES = notes(
  "Every item is checked against the products and this site's current prices (list_products) in the database. Invalid input is a 400 whose `errors` name each field as a dotted path: `items.2.week` is the week of the third item (this API names array elements by index, as in every other operation). Unknown keys anywhere are a 400 naming them.",
  "product: a code of an active product with a current price. listing_id: required where needs_listing, and must be one of your listings on this site; another account's listing is the same 404 as an unknown one. week: a Monday from the product's `weeks` in list_products with a free launch slot (sites.launch_slots_per_week; listings scheduled, waiting for their badge or live in that week count, and so do earlier items of the same order); a full week is a 400 with code launch_week_full.",
  "launch (and launch_bundle): week optional, omitted = live at once after payment; only for a listing that has not launched and is not on the paid plan yet. skip_queue: week required; only for a free listing waiting in the queue (status awaiting_badge or scheduled, plan free); it replaces the queue week. relaunch: week required; only for a listing that has launched. extra_categories: categories holds 1 to 3 category slugs that exist, are not the primary and not already on the listing; the listing may have at most 3 extras in total (existing plus this order). billboard_min: amount_cents at least min_amount_cents. options: validated against the product's options JSON Schema (list_products `options`); products without one take no options. amount_cents, categories and week are refused on products that do not take them.",
  'Contradictory carts are a 400 with code contradictory_order saying why: more than one of launch, launch_bundle, skip_queue, relaunch for one listing; skip_queue for a listing on the paid plan; the same extra category twice.',
  'Orders that would do nothing are a 409 before anything is charged: product_already_applied when the listing already has a launch (or launch_bundle), skip_queue or relaunch in another order that is waiting for payment, paid, or in effect (existing_order names it; a listing on the paid plan counts as launched); listing_exists for a launch of a product another listing of this site already shows (existing_listing and claim say which, and how to claim it). The pay step checks again; if two orders are paid for the same thing anyway, the first applied wins and the other is refunded automatically. featured starts when the listing is live, not at payment.',
  "Money is integer cents in the products' currency (one currency per order). Each line carries amount_cents (before VAT), vat_cents and total_cents; the order carries subtotal_cents, vat_cents and total_cents. VAT per line is rounded half up to the cent.",
  "VAT (the `vat` object says which rule applied): the seller is in SELLER_COUNTRY (default DE). Billing country = seller country: that country's rate (domestic, also for businesses). Other EU member states: a VAT number of the billing country that passes its checksum (offline, jsvat) gives reverse charge at 0% with the legal note; otherwise the buyer's country's standard rate (rates from the sales-tax package). Outside the EU: no VAT. Without billing_country: no VAT yet (rule no_country); the checkout page asks for the country before payment. With VIES_CHECK=true a cross-border number that passes its checksum is also checked online against VIES: a number VIES reports as not registered pays the standard rate; when VIES cannot answer (5 s cap) the checksum result stands and the note says so. VIES_CHECK is off by default.",
);

export const ordersOperations: Operation[] = [
  defineOperation({
    name: 'quote_order',
    examples: ordersExamples.quote_order,
    method: 'POST',
    path: '/orders/quote',
    tag: 'Orders',
    scope: 'orders:write',
    summary: 'Price an order and preview its VAT',
    description:
      "Prices order items (product codes and Monday weeks from list_products) with the site's current prices in cents and previews the VAT; checks weeks, categories and options. Saves and charges nothing; call create_checkout with the same items to order.",
    body: OrderBody,
    output: Quote,
    responses: { 404: "A listing_id is unknown or another account's listing." },
    notes: notes(RULES, 'Nothing is saved or reserved: a week that is free now may fill up before checkout.'),
    handler: async (body, ctx) => priceOrder(scope(ctx), body as Body),
  }),

  defineOperation({
    name: 'create_checkout',
    examples: ordersExamples.create_checkout,
    method: 'POST',
    path: '/orders/checkout',
    tag: 'Orders',
    scope: 'orders:write',
    status: 201,
    location: (order) => `/orders/${order.number}`,
    idempotent: true,
    summary: 'Create an order and its checkout page',
    description:
      'Saves the order (priced as quote_order does) as pending and returns checkout_url. A person must open checkout_url, enter billing details and pay there; nothing is charged through the API. Poll get_order for its status.',
    body: OrderBody,
    output: Order,
    responses: {
      404: "A listing_id is unknown or another account's listing.",
      503: 'The payment provider could not be reached (code payment_provider_unavailable); nothing was saved. Retry after Retry-After.',
    },
    notes: notes(
      'The checkout page is on this service: the person reviews the order, enters billing details and pays there. Card details are never requested through the API.',
      RULES,
      'Answers 201 with the order (status pending). The same Idempotency-Key with the same body replays the first answer (no second order); with another body it is 422.',
      'checkout_url is {site_url}/checkout/{number}. Only the signed-in person who made the order can open it (sign-in by e-mail link first). It shows the lines and totals, a billing form (name, address, country, VAT number; changing them re-prices the VAT) and the Pay button. With Stripe configured (STRIPE_SECRET_KEY) the order\'s Stripe Checkout Session is created here, with our line items and amounts plus a VAT line, and Pay redirects to it (a new session when billing details changed the total). Without keys the built-in test provider is used: every screen says "test mode" and its Pay button reports the payment through the same event path as Stripe\'s webhook.',
      'A pending order expires CHECKOUT_TTL_MINUTES (default 24 hours) after creation: checkout_url then shows that it expired and get_order reports status expired. A payment that still completes for an expired order (a Stripe session open in another tab) is accepted and fulfilled.',
      'When Stripe cannot be reached the answer is 503 with code payment_provider_unavailable and Retry-After, and nothing is saved (the order and its session are made in one transaction).',
    ),
    handler: async (body, ctx) =>
      createCheckout(
        {
          ...scope(ctx),
          email: (ctx.principal as Principal).email,
          siteUrl: ctx.config.siteUrl,
          provider: paymentProvider(ctx.config),
          ttlMinutes: ctx.config.orders.checkoutTtlMinutes,
        },
        body as Body,
      ),
  }),

  defineOperation({
    name: 'list_my_orders',
    examples: ordersExamples.list_my_orders,
    method: 'GET',
    path: '/orders',
    tag: 'Orders',
    scope: 'account:read',
    summary: 'List your orders',
    description:
      "Lists your orders, newest first, with status, totals in cents with VAT and lines with their fulfilment. Call get_order with an order's number for one order.",
    query: Type.Object({ ...Paging }, { additionalProperties: false }),
    output: ListOf(Order),
    notes: 'Newest first (created_at, then id). Each entry is what get_order answers.',
    handler: async ({ page, per_page }, ctx) => {
      const { items, total } = await listOrders(
        ctx.sql,
        { userId: (ctx.principal as Principal).userId, siteId: ctx.site.id },
        page,
        per_page,
        ctx.config.siteUrl,
      );
      return { items, ...pageInfo(page, per_page, total) };
    },
  }),

  defineOperation({
    name: 'get_order',
    examples: ordersExamples.get_order,
    method: 'GET',
    path: '/orders/{number}',
    tag: 'Orders',
    scope: 'account:read',
    summary: 'Get an order',
    description:
      'Returns one of your orders by number: status, totals in cents with VAT, billing details and what each line did. An order stays pending until the person pays at its checkout_url, then becomes paid and fulfilled.',
    params: NumberPath,
    notFoundParams: ['number'],
    output: Order,
    notes: notes(
      "404 when the number is unknown or another account's order.",
      'Status: pending (waiting for payment) -> paid (payment recorded; fulfilment job enqueued in the same transaction) -> fulfilled (every line done); pending -> expired (checkout not paid in time); paid or fulfilled -> refunded. Order numbers are LD- and 16 random base32 characters (80 bits): short and unguessable.',
      "Each line's fulfilment: pending, fulfilled (fulfilled_at, summary and details of what it did), reversed or cancelled after a refund (reversal says what was undone and what could not be). Fulfilment per product: launch = paid plan and live at once, or scheduled into the chosen week (no badge needed); skip_queue = the queued free listing moves to the chosen week; featured = featured for 7 days (extends a running period); launch_bundle = launch now + 7 days featured + story, milestones and media unlocked; extra_categories = categories added; relaunch = new launch week (stays live; a fresh spot in that week's ranking); ai_review = a written review drawn from quotes of the product's own website (stored crawl), shown on the profile; done_for_you = a task for the site team with the order's notes; billboard_min = a billboard contribution, always shown as paid.",
      'A launch without a week goes live at once in the current week and is not held to the weekly slot limit (slots bound the weeks people choose). If the chosen week filled up between checkout and payment, fulfilment takes the next week with a free slot and says so (details.requested_week and moved_because); if no week in the next year has one, a launch goes live at once instead.',
      "Refunds (Stripe charge.refunded, or the operator command `npm run ops -- order refund <number>`, which refunds a Stripe payment at Stripe first) mark the order refunded and reverse what can be: featured periods end, extra categories, AI reviews and billboard contributions are removed, open operator tasks are cancelled, an unfulfilled line is cancelled, a launch not yet live is taken back; a launch that went live, a relaunch and a finished done-for-you task cannot be undone, which the line's reversal says.",
    ),
    handler: async ({ number }, ctx) => {
      const row = await ownOrder(ctx.sql, { userId: (ctx.principal as Principal).userId, siteId: ctx.site.id }, number);
      return orderView(ctx.sql, row, ctx.config.siteUrl);
    },
  }),
];

import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Nullable } from '../registry/schemas.ts';
import { BOOKABLE_WEEKS, currentProducts, WEEK_PRODUCTS } from '../../sql/queries/products.ts';
import { productsExamples } from './products-examples.ts';

const Product = Type.Object({
  code: Type.String({ description: 'Send this as `product` in an order item.' }),
  name: Type.String(),
  description: Type.String(),
  needs_listing: Type.Boolean({ description: 'The order item must name a listing_id.' }),
  needs_week: Type.Boolean({ description: 'The order item must name a week.' }),
  price: Type.Object({
    amount_cents: Type.Integer({ minimum: 0, description: 'Price in integer cents, before VAT.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code.' }),
  }),
  min_amount_cents: Nullable(
    Type.Integer({ minimum: 1, description: 'The least amount_cents an order item may carry (billboard_min); null for fixed-price products.' }),
  ),
  options: Nullable(
    Type.Object(
      {},
      { additionalProperties: true, description: 'JSON Schema of the `options` an order item of this product may carry; null when it takes none.' },
    ),
  ),
  weeks: Nullable(
    Type.Array(Type.String({ format: 'date' }), {
      description: 'The Mondays (YYYY-MM-DD) an order item may choose as `week`; null for products that take no week.',
    }),
  ),
});

export const productsOperations: Operation[] = [
  defineOperation({
    name: 'list_products',
    examples: productsExamples.list_products,
    method: 'GET',
    path: '/products',
    tag: 'Orders',
    scope: null,
    summary: 'List products and their current prices',
    description:
      "Lists what can be bought for a listing (paid launch, skip the queue, featured placement, ...) with this site's current prices in cents and the bookable Monday weeks. Use a product's code and a week from here in quote_order and create_checkout.",
    output: Type.Object({ items: Type.Array(Product) }),
    notes: [
      'Public: no sign-in needed. Takes no parameters. Not paginated: `items` holds every active product of this site, in display order.',
      "Prices are the site's current admin prices: for each product, the newest price set for this site that is already in effect. Products without a current price on this site are not listed. Amounts are integer cents before VAT; quote_order previews the VAT.",
      `\`weeks\` is given for products that take a launch week (${WEEK_PRODUCTS.join(', ')}): the next ${BOOKABLE_WEEKS} Mondays starting with next week's, computed by the database in UTC. An order item's \`week\` must be one of them. For launch the week is optional (omitted means live now); skip_queue and relaunch require one.`,
      "`min_amount_cents` is set for billboard_min: an order item's amount_cents must be at least this. `options`, when not null, is the JSON Schema an order item's `options` must satisfy.",
    ].join('\n\n'),
    handler: async (_input, { sql, site }) => ({ items: await currentProducts(sql, site.id) }),
  }),
];

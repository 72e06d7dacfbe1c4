// The TypeBox schemas of the order operations (api/operations/orders.ts): the order body and what they answer.
import { Type } from '@sinclair/typebox';
import { CountryCode, Nullable } from '../registry/schemas.ts';

const OrderItem = Type.Object(
  {
    product: Type.String({ minLength: 1, maxLength: 60, description: 'A product code from list_products, e.g. launch or skip_queue.' }),
    listing_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Your listing id, e.g. 371; required for products with needs_listing=true.' })),
    week: Type.Optional(
      Type.String({
        maxLength: 10,
        format: 'date',
        description:
          "A Monday (YYYY-MM-DD) from the product's `weeks` in list_products, e.g. 2026-12-14. launch: optional (omitted = live at once after payment); skip_queue, relaunch: required.",
      }),
    ),
    amount_cents: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100000000,
        description: "billboard_min only: the amount in cents, e.g. 5000 for 50.00, at least the product's min_amount_cents.",
      }),
    ),
    categories: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,219}$', maxLength: 220 }), {
        maxItems: 10,
        description: 'extra_categories only: 1 to 3 category slugs from list_categories, e.g. ["developer-tools"].',
      }),
    ),
    options: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, maxProperties: 20, description: 'For products whose list_products entry has `options`: must satisfy that JSON Schema.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const OrderBody = Type.Object(
  {
    items: Type.Array(OrderItem, { minItems: 1, maxItems: 20 }),
    billing_country: Type.Optional(CountryCode),
    vat_number: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'An EU business VAT number with its country prefix, e.g. FR40303265045.' }),
    ),
  },
  { additionalProperties: false },
);

const Vat = Type.Object({
  rule: Type.Union(
    ['no_country', 'domestic', 'eu_standard_rate', 'reverse_charge', 'outside_eu', 'seller_outside_eu'].map((r) => Type.Literal(r)),
    {
      description:
        'Which VAT rule applied: domestic (billing country = seller country), eu_standard_rate (EU buyer without a valid business number of their country: their standard rate), reverse_charge (valid EU business number from another member state: 0%), outside_eu (0%), no_country (no billing country yet: 0% until it is known), seller_outside_eu.',
    },
  ),
  rate_basis_points: Type.Integer({ minimum: 0, description: '1900 = 19%.' }),
  rate_percent: Type.String(),
  country: Nullable(Type.String()),
  vat_number: Nullable(Type.String({ description: 'Normalised (upper case, no spaces).' })),
  vat_number_valid: Nullable(Type.Boolean({ description: "Whether the number passed its country's checksum (offline); null when none was sent." })),
  note: Type.String({ description: 'The rule in words; for reverse charge the legal note for the invoice.' }),
});

const LineBase = {
  position: Type.Integer({ minimum: 0, description: 'Index of the item in the order body.' }),
  product: Type.String(),
  name: Type.String(),
  listing_id: Nullable(Type.Integer()),
  week: Nullable(Type.String({ format: 'date' })),
  categories: Type.Array(Type.String()),
  options: Nullable(Type.Object({}, { additionalProperties: true })),
  amount_cents: Type.Integer({ description: 'Price of the line before VAT.' }),
  vat_cents: Type.Integer(),
  total_cents: Type.Integer(),
};

const Money = {
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  subtotal_cents: Type.Integer({ description: 'Sum of the lines before VAT.' }),
  vat_cents: Type.Integer(),
  total_cents: Type.Integer({ description: 'What is paid: subtotal + VAT.' }),
  vat: Vat,
};

export const Quote = Type.Object({ ...Money, lines: Type.Array(Type.Object(LineBase)) });

const Fulfilment = Type.Object({
  status: Type.Union([Type.Literal('pending'), Type.Literal('fulfilled'), Type.Literal('reversed'), Type.Literal('cancelled')]),
  fulfilled_at: Nullable(Type.String({ format: 'date-time' })),
  summary: Nullable(Type.String({ description: 'What fulfilment did, in words.' })),
  details: Nullable(
    Type.Object({}, { additionalProperties: true, description: 'What fulfilment did, as data (weeks, featured period, task id, categories added, ...).' }),
  ),
  reversal: Nullable(Type.Object({}, { additionalProperties: true, description: 'After a refund: whether the line was undone and why not.' })),
});

export const Order = Type.Object({
  number: Type.String({ maxLength: 32, description: 'The order number (LD-XXXX-XXXX-XXXX-XXXX).' }),
  status: Type.String({ description: 'pending, paid, fulfilled, expired or refunded.' }),
  ...Money,
  billing: Type.Object({
    name: Nullable(Type.String()),
    address: Nullable(Type.String()),
    country: Nullable(Type.String()),
    vat_number: Nullable(Type.String()),
  }),
  provider: Type.Union([Type.Literal('test'), Type.Literal('stripe')]),
  test_mode: Type.Boolean({ description: 'True with the built-in test provider: nothing is charged.' }),
  checkout_url: Nullable(
    Type.String({
      format: 'uri',
      description: 'The page where the person reviews the order, enters billing details and pays; null once the order is no longer pending.',
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  paid_at: Nullable(Type.String({ format: 'date-time' })),
  fulfilled_at: Nullable(Type.String({ format: 'date-time' })),
  refunded_at: Nullable(Type.String({ format: 'date-time' })),
  refund: Nullable(Type.Object({}, { additionalProperties: true })),
  lines: Type.Array(Type.Object({ ...LineBase, fulfilment: Fulfilment })),
  invoice_url: Nullable(
    Type.String({
      format: 'uri',
      description:
        'The invoice PDF, issued shortly after payment (null before). Only the buyer can download it: with this API credential (Authorization: Bearer) or signed in on the site.',
    }),
  ),
  credit_note_urls: Type.Array(Type.String({ format: 'uri' }), {
    description: 'Credit note PDFs issued for refunds of this order, oldest first; each refers to the invoice. Buyer only, like invoice_url.',
  }),
});

export const NumberPath = Type.Object(
  {
    number: Type.String({
      minLength: 1,
      maxLength: 32,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'The order number from create_checkout or list_my_orders, e.g. LD-4BNK-90PK-KYZP-ZX51.',
    }),
  },
  { additionalProperties: false },
);

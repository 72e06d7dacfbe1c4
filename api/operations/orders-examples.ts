// Examples of the orders operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

/** The demo order the order operations answer with (a pending skip_queue order). */
const pendingOrder = {
  number: 'LD-4BNK-90PK-KYZP-ZX51',
  status: 'pending',
  currency: 'USD',
  subtotal_cents: 1900,
  vat_cents: 361,
  total_cents: 2261,
  vat: {
    note: 'Domestic sale in DE: 19% VAT.',
    rule: 'domestic',
    country: 'DE',
    vat_number: null,
    rate_percent: '19',
    vat_number_valid: null,
    rate_basis_points: 1900,
  },
  billing: { name: null, address: null, country: 'DE', vat_number: null },
  invoice_url: null,
  credit_note_urls: [],
  provider: 'test',
  test_mode: true,
  checkout_url: 'https://launchpad.example/checkout/LD-4BNK-90PK-KYZP-ZX51',
  created_at: '2026-11-28T04:57:53.035Z',
  expires_at: '2026-11-29T04:57:53.035Z',
  paid_at: null,
  fulfilled_at: null,
  refunded_at: null,
  refund: null,
  lines: [
    {
      position: 0,
      product: 'skip_queue',
      name: 'Skip the queue',
      listing_id: 371,
      week: '2026-12-14',
      categories: [],
      options: null,
      amount_cents: 1900,
      vat_cents: 361,
      total_cents: 2261,
      fulfilment: { status: 'pending', fulfilled_at: null, summary: null, details: null, reversal: null },
    },
  ],
};
export const ordersExamples = {
  quote_order: {
    input: { items: [{ product: 'skip_queue', listing_id: 371, week: '2026-12-14' }], billing_country: 'DE' },
    output: {
      currency: 'USD',
      lines: [
        {
          position: 0,
          product: 'skip_queue',
          name: 'Skip the queue',
          listing_id: 371,
          week: '2026-12-14',
          categories: [],
          options: null,
          amount_cents: 1900,
          vat_cents: 361,
          total_cents: 2261,
        },
      ],
      subtotal_cents: 1900,
      vat_cents: 361,
      total_cents: 2261,
      vat: {
        country: 'DE',
        vat_number: null,
        vat_number_valid: null,
        rule: 'domestic',
        rate_basis_points: 1900,
        rate_percent: '19',
        note: 'Domestic sale in DE: 19% VAT.',
      },
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: items[0].week must be a Monday from the weeks list_products shows (2026-11-30 to 2027-02-15)',
      errors: [{ field: 'items[0].week', message: 'must be a Monday from the weeks list_products shows (2026-11-30 to 2027-02-15)' }],
    },
  },
  create_checkout: {
    input: { items: [{ product: 'skip_queue', listing_id: 371, week: '2026-12-14' }], billing_country: 'DE' },
    output: pendingOrder,
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: items[0].week must be a Monday from the weeks list_products shows (2026-11-30 to 2027-02-15)',
      errors: [{ field: 'items[0].week', message: 'must be a Monday from the weeks list_products shows (2026-11-30 to 2027-02-15)' }],
    },
  },
  list_my_orders: {
    input: { page: 1, per_page: 20 },
    output: {
      items: [pendingOrder],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
    },
    error: { status: 403, code: 'insufficient_scope', detail: 'This credential lacks the account:read scope.' },
  },
  get_order: {
    input: { number: 'LD-4BNK-90PK-KYZP-ZX51' },
    output: pendingOrder,
    error: { status: 404, code: 'not_found', detail: 'No order ORD-0000.' },
  },
} satisfies Record<string, OperationExamples>;

// Examples of the products operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const productsExamples = {
  list_products: {
    output: {
      items: [
        {
          code: 'launch',
          name: 'Paid launch',
          description: 'Go live right away, or in the launch week you choose, instead of waiting 6-8 weeks in the free queue. No badge needed.',
          needs_listing: true,
          needs_week: false,
          price: { amount_cents: 4900, currency: 'USD' },
          min_amount_cents: null,
          options: null,
          weeks: ['2026-11-30', '2026-12-07'],
        },
        {
          code: 'skip_queue',
          name: 'Skip the queue',
          description: 'For free listings: launch in a week of your choice instead of the free-queue week.',
          needs_listing: true,
          needs_week: true,
          price: { amount_cents: 1900, currency: 'USD' },
          min_amount_cents: null,
          options: null,
          weeks: ['2026-11-30', '2026-12-07'],
        },
      ],
    },
    error: { status: 429, code: 'rate_limited', detail: 'Rate limit reached; retry in 20 s.' },
  },
} satisfies Record<string, OperationExamples>;

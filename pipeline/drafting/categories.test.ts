import { describe, expect, test } from 'bun:test';
import { ExtractiveDrafter } from './extractive.ts';
import { checkProposal, emptyProposal } from './evidence.ts';
import { fixturePage } from '../../test/fixtures/sites/sites.ts';
import type { CategoryText } from './types.ts';
import { EVAL_CATEGORIES } from '../../test/eval/categories.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const drafter = new ExtractiveDrafter({ now: NOW });
// The evaluation's tree: eleven categories, described the way a directory's editors would.
const TREE: CategoryText[] = EVAL_CATEGORIES;
const NAMES = TREE.map((c) => c.name);

const page = (body: string, url = 'https://tallow.test/') =>
  fixturePage(url, `<html><head><title>Tallow</title></head><body><nav><a href="/">Home</a><a href="/pricing">Pricing</a></nav>${body}</body></html>`);

describe('categories from the directory tree', () => {
  test('a site that never names its category gets it from what it describes, quoting the sentences that decided', async () => {
    const pages = [
      page(
        '<h1>Know which candles make you money</h1><p>Tallow shows profit per product and the conversion funnel of every order.</p>' +
          '<ul><li>Cohort charts of repeat customers by month</li><li>A weekly revenue report every Monday</li></ul>',
      ),
    ];
    const draft = await drafter.draft({ pages, categoryNames: NAMES, categories: TREE });
    expect(draft.fields.categories?.value).toEqual(['Analytics']);
    const quotes = draft.fields.categories!.evidence.map((e) => e.quote);
    expect(quotes.some((q) => /profit|funnel|cohort|revenue/i.test(q))).toBe(true);
    expect(quotes.join(' ')).not.toMatch(/analytics/i);
  });

  test("a theme's class with 'footer' on the page itself makes no footer of the page", async () => {
    const body =
      '<h1>Know which candles make you money</h1><p>Tallow shows profit per product and the conversion funnel of every order.</p>' +
      '<ul><li>Cohort charts of repeat customers by month</li><li>A weekly revenue report every Monday</li></ul>';
    for (const wrap of [
      (b: string) => `<html><head><title>Tallow</title></head><body class="page-template-elementor_header_footer">${b}</body></html>`,
      (b: string) => `<html><head><title>Tallow</title></head><body><div id="page-container" class="et_pb_footer_columns4">${b}</div></body></html>`,
    ]) {
      const draft = await drafter.draft({ pages: [fixturePage('https://tallow.test/', wrap(body))], categoryNames: NAMES, categories: TREE });
      expect(draft.fields.categories?.value).toEqual(['Analytics']);
      expect(draft.fields.tags?.value.length).toBeGreaterThan(0);
    }
  });

  test('below the threshold no category is guessed', async () => {
    const pages = [page('<h1>Tallow</h1><p>Hand-poured candles from a small workshop, shipped in recycled boxes.</p>')];
    const draft = await drafter.draft({ pages, categoryNames: NAMES, categories: TREE });
    expect(draft.fields.categories).toBeUndefined();
  });

  test('menus, footers and testimonials do not decide the category', async () => {
    const pages = [
      page(
        '<h1>Tallow</h1><p>Hand-poured candles from a small workshop.</p>' +
          '<blockquote>"Their invoices, VAT and bookkeeping are always in order." <cite>Ana Ruiz, accountant</cite></blockquote>' +
          '<footer><p>Invoices · VAT · Bookkeeping · Payments</p></footer>',
      ),
    ];
    const draft = await drafter.draft({ pages, categoryNames: NAMES, categories: TREE });
    expect(draft.fields.categories).toBeUndefined();
  });

  test('the check takes a slug or a name, stores the name, and needs quotes about the category', () => {
    const pages = [page('<p>Tallow sends every invoice with the right VAT and reconciles payments.</p>')];
    const quote = { quote: 'Tallow sends every invoice with the right VAT and reconciles payments.', url: 'https://tallow.test/' };
    const proposal = emptyProposal();
    proposal.fields.categories = { value: ['finance', 'Security', 'Analytics'], evidence: [quote] };
    const checked = checkProposal(proposal, pages, { categoryNames: NAMES, categories: TREE, now: NOW });
    expect(checked.fields.categories?.value).toEqual(['Finance']);
  });
});

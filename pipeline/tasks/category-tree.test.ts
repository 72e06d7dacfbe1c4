// The category tree as the drafting jobs read it from the database: name, description and the
// keywords an editor gave each category. A site that never says the category's name, and none
// of its description's words either, is still placed by its keywords, with the sentences that
// decided quoted; without the keywords nothing is guessed.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { makeCategory } from '../../test/builders.ts';
import { fixturePage } from '../../test/fixtures/sites/sites.ts';
import { ExtractiveDrafter } from '../drafting/extractive.ts';
import { categoryTree } from './draft-deps.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
  const people = await makeCategory(db.sql, { slug: 'people-ops', name: 'People Operations', columns: { description: 'Run the people side of a company.' } });
  await makeCategory(db.sql, {
    slug: 'shift-planning',
    name: 'Shift Planning',
    parentId: people.id,
    columns: { description: 'Plan who works when.', keywords: ['rota', 'rotas', 'shift swaps', 'clock in', 'timesheets'] },
  });
  await makeCategory(db.sql, {
    slug: 'bookkeeping',
    name: 'Bookkeeping',
    columns: { description: 'Keep the books.', keywords: ['ledger', 'invoices', 'receipts', 'reconciliation'] },
  });
  await makeCategory(db.sql, { slug: 'writing', name: 'Writing', columns: { description: 'Write better.', keywords: ['grammar', 'drafts', 'essays'] } });
}, 60_000);
afterAll(async () => {
  await db.drop();
});

const NOW = new Date('2026-06-01T00:00:00Z');
// A café staffing app that says neither "shift planning" nor "plan", "works" or "when".
const pages = [
  fixturePage(
    'https://brewrota.test/',
    '<html><head><title>Brewrota</title></head><body><h1>Brewrota</h1>' +
      '<p>Brewrota builds the weekly rota for your café in a minute.</p>' +
      '<p>Baristas agree shift swaps from their phones and clock in at the till; timesheets are ready for the accountant every Friday.</p>' +
      '</body></html>',
  ),
];

describe('categories from the directory tree in the database', () => {
  test('categoryTree reads each category with its keywords', async () => {
    const { categories } = await categoryTree(db.sql);
    expect(categories.find((c) => c.slug === 'shift-planning')).toEqual({
      slug: 'shift-planning',
      name: 'Shift Planning',
      description: 'People Operations. Plan who works when.',
      keywords: ['rota', 'rotas', 'shift swaps', 'clock in', 'timesheets'],
    });
  });

  test('a site that only matches a category by its keywords is placed in it, quoting the sentences that decided', async () => {
    const { names, categories } = await categoryTree(db.sql);
    const draft = await new ExtractiveDrafter({ now: NOW }).draft({ pages, categoryNames: names, categories });
    expect(draft.fields.categories?.value).toEqual(['Shift Planning']);
    const quotes = draft.fields.categories!.evidence.map((e) => e.quote);
    expect(quotes.some((q) => /rota|shift swaps|timesheets/i.test(q))).toBe(true);
    expect(quotes.join(' ')).not.toMatch(/shift planning/i);
  });

  test('without the keywords the same site gets no category: nothing is guessed below the threshold', async () => {
    await db.sql`update categories set keywords = '{}'`;
    try {
      const { names, categories } = await categoryTree(db.sql);
      const draft = await new ExtractiveDrafter({ now: NOW }).draft({ pages, categoryNames: names, categories });
      expect(draft.fields.categories).toBeUndefined();
    } finally {
      await db.sql`update categories set keywords = '{rota,rotas,shift swaps,clock in,timesheets}' where slug = 'shift-planning'`;
    }
  });

  test('the table refuses more than 30 keywords or a null one', async () => {
    const many = Array.from({ length: 31 }, (_, i) => `word${i}`);
    await expect(db.sql`update categories set keywords = ${many} where slug = 'writing'`).rejects.toThrow(/categories_keywords_check/);
    await expect(db.sql`update categories set keywords = array['a', null] where slug = 'writing'`).rejects.toThrow(/categories_keywords_check/);
  });
});

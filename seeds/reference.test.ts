import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freshDatabase } from '../test/db.ts';
import { ensureSite } from '../sql/site.ts';
import { CATEGORY_TREE } from './demo-data/index.ts';
import { INTERVIEW_QUESTIONS, PRODUCTS } from './demo-data/catalog.ts';
import { loadReferenceData } from './reference.ts';

const root = join(import.meta.dirname, '..');
let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('reference data', () => {
  test('loads the category tree, products with prices and interview questions once; a re-run adds nothing and keeps edits', async () => {
    const site = await ensureSite(db.sql, 'main', 'http://localhost');
    const first = await loadReferenceData(db.sql, site.id);
    const categoryCount = CATEGORY_TREE.reduce((n, p) => n + 1 + p.children.length, 0);
    expect(first).toEqual({ categories: categoryCount, products: PRODUCTS.length, prices: PRODUCTS.length, questions: INTERVIEW_QUESTIONS.length });
    const [child] = await db.sql`select c.slug, p.slug as parent from categories c join categories p on p.id = c.parent_id limit 1`;
    expect(child.parent).toBeTruthy();

    // Every category has keywords the drafters match sites against.
    const [{ bare }] = await db.sql`select count(*)::int as bare from categories where cardinality(keywords) = 0`;
    expect(bare).toBe(0);

    await db.sql`update categories set name = 'Renamed by an operator' where slug = ${CATEGORY_TREE[0].slug}`;
    // Keywords an operator set are kept; a category loaded before keywords existed gets them.
    await db.sql`update categories set keywords = '{apis,edited}' where slug = ${CATEGORY_TREE[0].children[0].slug}`;
    await db.sql`update categories set keywords = '{}' where slug = ${CATEGORY_TREE[1].slug}`;
    const second = await loadReferenceData(db.sql, site.id);
    const keywords = await db.sql<{ slug: string; keywords: string[] }[]>`
      select slug, keywords from categories where slug in ${db.sql([CATEGORY_TREE[0].children[0].slug, CATEGORY_TREE[1].slug])}`;
    expect(Object.fromEntries(keywords.map((k) => [k.slug, k.keywords]))).toEqual({
      [CATEGORY_TREE[0].children[0].slug]: ['apis', 'edited'],
      [CATEGORY_TREE[1].slug]: CATEGORY_TREE[1].keywords,
    });
    expect(second).toEqual({ categories: 0, products: 0, prices: 0, questions: 0 });
    const [kept] = await db.sql`select name from categories where slug = ${CATEGORY_TREE[0].slug}`;
    expect(kept.name).toBe('Renamed by an operator');
    const [{ n }] = await db.sql`select count(*)::int as n from listings`;
    expect(n).toBe(0); // no demo listings: reference data only
  });

  test('`npm run migrate` applies migrations and loads reference data, idempotently; without DATABASE_URL it says what is needed', async () => {
    const other = await freshDatabase();
    try {
      const env = { ...process.env, DATABASE_URL: other.url, SITE_URL: 'https://directory.example' };
      const run = () => spawnSync(process.execPath, [join(root, 'deploy/migrate.ts')], { env, encoding: 'utf8' });
      const first = run();
      expect(first.status).toBe(0);
      expect(first.stdout).toContain('migrations: up to date');
      expect(first.stdout).toMatch(/reference data: added [1-9]\d* categories/);
      const again = run();
      expect(again.stdout).toContain('reference data: added 0 categories, 0 products, 0 prices, 0 interview questions');
      const [{ n }] = await other.sql`select count(*)::int as n from products`;
      expect(n).toBe(PRODUCTS.length);
      const missing = spawnSync(process.execPath, [join(root, 'deploy/migrate.ts')], { env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8' });
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain('DATABASE_URL is required');
    } finally {
      await other.drop();
    }
  });
});

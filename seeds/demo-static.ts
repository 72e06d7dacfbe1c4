// The fixed part of the demo: category tree, products and prices, interview questions, blog, other sites.
import type { Sql } from '../sql/db.ts';
import { GROWTH_POSTS } from './demo-data/blog-growing.ts';
import { LAUNCH_POSTS } from './demo-data/blog-launching.ts';
import { INTERVIEW_QUESTIONS, PRODUCTS, SISTER_SITES } from './demo-data/catalog.ts';
import { ATTRIBUTES, CATEGORY_TREE, categoryFaqs } from './demo-data/index.ts';
import { insertMany, insertReturning } from './bulk.ts';
import { addDays, addHours } from './random.ts';

const attrs = (keys: string[]) => keys.map((key) => ({ key, label: ATTRIBUTES[key].label }));

/** Inserts the two-level tree; returns category ids by slug. */
export async function seedCategories(sql: Sql): Promise<Map<string, number>> {
  const parents = await insertReturning(
    sql,
    'categories',
    CATEGORY_TREE.map((p, position) => ({
      slug: p.slug,
      name: p.name,
      parent_id: null,
      description: p.description,
      faqs: categoryFaqs(p.name, p.faqs, 2),
      attributes: attrs(p.attrs),
      position,
    })),
    ['id', 'slug'],
  );
  const ids = new Map(parents.map((r) => [r.slug as string, r.id as number]));
  const children = CATEGORY_TREE.flatMap((p) =>
    p.children.map((c, position) => ({
      slug: c.slug,
      name: c.name,
      parent_id: ids.get(p.slug)!,
      description: c.description,
      faqs: categoryFaqs(c.name, c.faqs, position % 3),
      attributes: attrs(c.attrs),
      position,
    })),
  );
  for (const r of await insertReturning(sql, 'categories', children, ['id', 'slug'])) ids.set(r.slug, r.id);
  return ids;
}

/** Products with this site's prices: an older price for some, then the current one. */
export async function seedProducts(sql: Sql, siteId: number, now: Date): Promise<void> {
  await insertMany(
    sql,
    'products',
    PRODUCTS.map((p, position) => ({
      code: p.code,
      name: p.name,
      description: p.description,
      needs_listing: p.needs_listing,
      needs_week: p.needs_week,
      options: p.options,
      position,
      active: true,
    })),
  );
  const prices = PRODUCTS.flatMap((p) =>
    [
      ...(p.previous_amount_cents ? [{ amount: p.previous_amount_cents, from: addDays(now, -240) }] : []),
      { amount: p.amount_cents, from: addDays(now, -60) },
    ].map(({ amount, from }) => ({
      site_id: siteId,
      product_code: p.code,
      amount_cents: amount,
      currency: 'USD',
      min_amount_cents: p.min_amount_cents ?? null,
      valid_from: from,
    })),
  );
  await insertMany(sql, 'product_prices', prices);
}

export async function seedQuestionsAndBlog(sql: Sql, now: Date): Promise<void> {
  await insertMany(
    sql,
    'interview_questions',
    INTERVIEW_QUESTIONS.map((question, i) => ({ position: i + 1, question, active: true })),
  );
  await insertMany(
    sql,
    'blog_posts',
    [...LAUNCH_POSTS, ...GROWTH_POSTS].map((p) => ({
      slug: p.slug,
      title: p.title,
      excerpt: p.excerpt,
      body_md: p.body,
      author: p.author,
      tags: p.tags,
      faqs: p.faqs,
      published_at: addHours(addDays(now, -p.daysAgo), -9),
    })),
  );
}

/** The other sites of the network; returns [siteId, how many listings it gets]. */
export async function seedSisterSites(sql: Sql): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for (const s of SISTER_SITES) {
    const [row] = await sql`
      insert into sites (key, name, url, purpose, is_self) values (${s.key}, ${s.name}, ${s.url}, ${s.purpose}, false)
      on conflict (key) do update set name = excluded.name where not sites.is_self returning id`;
    if (row) out.push([Number(row.id), s.listings]); // never this deployment's own site
  }
  return out;
}

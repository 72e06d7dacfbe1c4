// Reference data a working site needs, separate from the demo: the category tree (with its
// descriptions, FAQs and compare attributes), the products with this site's starting prices, and
// the founder interview questions. Idempotent: rows that exist (by slug, code, or question text)
// are left as they are, so operators' later edits survive a re-run.
import { type Sql, transaction } from '../sql/db.ts';
import { INTERVIEW_QUESTIONS, PRODUCTS } from './demo-data/catalog.ts';
import { ATTRIBUTES, CATEGORY_TREE, categoryFaqs } from './demo-data/index.ts';

export interface ReferenceResult {
  categories: number;
  products: number;
  prices: number;
  questions: number;
}

const attrs = (keys: string[]) => keys.map((key) => ({ key, label: ATTRIBUTES[key].label }));
const j = (sql: Sql, v: unknown) => sql.json(v as never);

// Categories loaded before they had keywords get them; keywords an operator set are kept.
async function fillKeywords(tx: Sql, slug: string, keywords: string[]): Promise<void> {
  await tx`update categories set keywords = ${keywords} where slug = ${slug} and keywords = '{}'`;
}

export async function loadReferenceData(sql: Sql, siteId: number): Promise<ReferenceResult> {
  return transaction(sql, async (tx) => {
    // One loader at a time (two migration jobs racing must not both insert the questions).
    await tx`select pg_advisory_xact_lock(hashtext('load_reference_data'))`;
    let categories = 0;
    for (const [position, p] of CATEGORY_TREE.entries()) {
      categories += (
        await tx`
        insert into categories (slug, name, parent_id, description, faqs, attributes, position, keywords)
        values (${p.slug}, ${p.name}, null, ${p.description}, ${j(tx, categoryFaqs(p.name, p.faqs, 2))}, ${j(tx, attrs(p.attrs))}, ${position}, ${p.keywords})
        on conflict (slug) do nothing returning id`
      ).length;
      await fillKeywords(tx, p.slug, p.keywords);
      for (const [childPosition, c] of p.children.entries()) {
        categories += (
          await tx`
          insert into categories (slug, name, parent_id, description, faqs, attributes, position, keywords)
          select ${c.slug}, ${c.name}, parent.id, ${c.description}, ${j(tx, categoryFaqs(c.name, c.faqs, childPosition % 3))},
                 ${j(tx, attrs(c.attrs))}, ${childPosition}, ${c.keywords}
          from categories parent where parent.slug = ${p.slug}
          on conflict (slug) do nothing returning id`
        ).length;
        await fillKeywords(tx, c.slug, c.keywords);
      }
    }
    let products = 0;
    let prices = 0;
    for (const [position, p] of PRODUCTS.entries()) {
      products += (
        await tx`
        insert into products (code, name, description, needs_listing, needs_week, options, position, active)
        values (${p.code}, ${p.name}, ${p.description}, ${p.needs_listing}, ${p.needs_week}, ${p.options ? j(tx, p.options) : null}, ${position}, true)
        on conflict (code) do nothing returning code`
      ).length;
      prices += (
        await tx`
        insert into product_prices (site_id, product_code, amount_cents, currency, min_amount_cents, valid_from)
        select ${siteId}, ${p.code}, ${p.amount_cents}, 'USD', ${p.min_amount_cents ?? null}, now()
        where not exists (select 1 from product_prices where site_id = ${siteId} and product_code = ${p.code})
        returning id`
      ).length;
    }
    let questions = 0;
    for (const [i, question] of INTERVIEW_QUESTIONS.entries()) {
      questions += (
        await tx`
        insert into interview_questions (position, question, active)
        select ${i + 1}, ${question}, true
        where not exists (select 1 from interview_questions where question = ${question})
        returning id`
      ).length;
    }
    return { categories, products, prices, questions };
  });
}

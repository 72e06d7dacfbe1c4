// The ai_review product: a written review of a listing drawn from the product's own website text.
// It reuses what the submission pipeline stored (the draft's evidence quotes and crawled pages),
// so every statement about the product quotes the site word for word; nothing is fetched again.
import type { Sql } from '../../sql/db.ts';

interface Quote {
  quote: string;
  url: string;
  field: string;
}

const LABELS: Record<string, string> = {
  tagline: 'tagline',
  short_description: 'short description',
  description: 'description',
  pricing_summary: 'pricing',
  pricing_model: 'pricing model',
  features: 'features',
  usps: 'selling points',
};

/** The evidence quotes of the listing's draft, most useful fields first; else sentences of its crawled home page. */
async function websiteQuotes(tx: Sql, listingId: string): Promise<Quote[]> {
  const fromDraft = await tx<Quote[]>`
    select f.key as field, e->>'quote' as quote, e->>'url' as url
    from drafts d, jsonb_each(d.fields) f, jsonb_array_elements(coalesce(f.value->'evidence', '[]')) e
    where d.listing_id = ${listingId} and f.key = any(${Object.keys(LABELS)}::text[]) and length(e->>'quote') between 3 and 400
    order by array_position(${Object.keys(LABELS)}::text[], f.key), e->>'quote' limit 8`;
  if (fromDraft.length) return fromDraft;
  return tx<Quote[]>`
    select 'page' as field, s as quote, p.url
    from drafts d join draft_pages p on p.draft_id = d.id and p.kind = 'site',
         regexp_split_to_table(left(p.text, 4000), '(?<=[.!?])\\s+') s
    where d.listing_id = ${listingId} and length(s) between 20 and 300
    order by p.position limit 5`;
}

/** Writes the review (one per order line) and says what it holds. */
export async function writeAiReview(tx: Sql, lineId: string, listingId: string, focus: string | null) {
  const [l] = await tx<{ name: string; tagline: string | null; description: string | null; seo_title: string | null; seo_description: string | null }[]>`
    select name, tagline, description, seo_title, seo_description from listings where id = ${listingId}`;
  const quotes = await websiteQuotes(tx, listingId);
  const parts: string[] = [`AI review of ${l.name}${focus ? `, focused on ${focus}` : ''}.`];
  if (quotes.length) {
    parts.push('What the website says:');
    for (const q of quotes) parts.push(`- ${LABELS[q.field] ?? 'website'}: "${q.quote}" (${q.url})`);
  } else {
    parts.push("No text of the product's website is stored (the listing was not submitted by URL), so the review looks at the listing alone.");
  }
  const advice: string[] = [];
  if (!l.tagline) advice.push('Add a tagline: one line that says who the product is for and what it does.');
  else if (l.tagline.length > 80) advice.push(`Shorten the tagline (${l.tagline.length} characters) to under 80 so it is not cut in lists.`);
  if (!l.description || l.description.length < 300)
    advice.push('Write a longer description (300+ characters) naming the problem, the audience and what makes the product different.');
  if (!l.seo_title) advice.push('Set an SEO title (up to 70 characters) with the product name and its category.');
  if (!l.seo_description) advice.push('Set an SEO description (up to 170 characters) that restates the tagline with one concrete benefit.');
  if (quotes.length && !quotes.some((q) => q.field === 'pricing_summary' || q.field === 'pricing_model'))
    advice.push('State pricing on the website: visitors and the directory look for it first.');
  parts.push('Suggestions:', ...(advice.length ? advice.map((a) => `- ${a}`) : ['- The profile covers the essentials; keep the latest updates coming.']));
  const body = parts.join('\n');
  const [r] = await tx<{ id: string }[]>`
    insert into listing_ai_reviews (listing_id, order_line_id, body, quotes)
    values (${listingId}, ${lineId}, ${body}, ${tx.json(quotes.map(({ quote, url }) => ({ quote, url })) as never)}) returning id::text`;
  return {
    summary: `AI review #${r.id} written from ${quotes.length} quotes of the website; shown on the profile.`,
    review_id: Number(r.id),
    quotes: quotes.length,
  };
}

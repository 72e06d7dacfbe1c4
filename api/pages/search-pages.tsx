import { queryOf, readOp } from './data.ts';
import { Card, Cards, Pager, type Summary } from './components.tsx';
import { n } from './format.ts';
import type { Renderer } from './rendered.ts';

const SORTS: [string, string][] = [
  ['relevance', 'Relevance'],
  ['newest', 'Newest'],
  ['votes', 'Most votes'],
  ['trending', 'Trending'],
  ['most_viewed', 'Most viewed'],
  ['most_followed', 'Most followed'],
];

const Option = ({ value, label, current }: { value: string; label: string; current?: string }) => (
  <option value={value} selected={value === (current ?? '')}>
    {label}
  </option>
);

export const searchPage: Renderer = async (deps, url) => {
  const keys = ['q', 'category', 'stage', 'country', 'pricing_model', 'domain', 'status', 'sort', 'page'];
  const q = queryOf(url, keys);
  const out = await readOp(deps, 'search_listings', { query: q });
  const cats = await readOp(deps, 'list_categories');
  const catOptions = cats.items.flatMap((c: any) => [c, ...(c.subcategories ?? []).map((s: any) => ({ ...s, name: `— ${s.name}` }))]);
  return {
    meta: {
      title: q.q ? `Search: ${q.q}` : 'Search',
      description: `Search the listings of ${deps.site.name} by name, tagline, description and keywords, with filters.`,
      path: '/search',
      noindex: Object.keys(q).length > 0,
    },
    body: (
      <>
        <h1>Search</h1>
        {/* biome-ignore lint/a11y/useSemanticElements: the markup the site has always sent; <search> would change it */}
        <form class="filters search" method="get" action="/search" role="search">
          <div class="field">
            <label for="sq">Words</label>
            <input id="sq" name="q" type="search" value={q.q ?? ''} maxLength={200} />
          </div>
          <div class="field">
            <label for="scat">Category</label>
            <select id="scat" name="category">
              <Option value="" label="Any" current={q.category} />
              {catOptions.map((c: any) => (
                <Option value={c.slug} label={c.name} current={q.category} />
              ))}
            </select>
          </div>
          <div class="field">
            <label for="scountry">Country (two letters)</label>
            <input id="scountry" name="country" value={q.country ?? ''} maxLength={2} size={3} />
          </div>
          <div class="field">
            <label for="spricing">Pricing model</label>
            <input id="spricing" name="pricing_model" value={q.pricing_model ?? ''} maxLength={40} />
          </div>
          <div class="field">
            <label for="sstatus">Status</label>
            <select id="sstatus" name="status">
              <Option value="live" label="Live" current={q.status ?? 'live'} />
              <Option value="upcoming" label="Upcoming" current={q.status} />
            </select>
          </div>
          <div class="field">
            <label for="ssort">Sort</label>
            <select id="ssort" name="sort">
              {SORTS.map(([v, l]) => (
                <Option value={v} label={l} current={q.sort ?? 'relevance'} />
              ))}
            </select>
          </div>
          <button type="submit">Search</button>
        </form>
        <p class="meta" role="status">
          {n(out.total)} {out.total === 1 ? 'listing' : 'listings'}
        </p>
        <Cards empty="No listings match. Try fewer words or filters.">
          {out.items.map((i: Summary) => (
            <Card s={i} />
          ))}
        </Cards>
        <Pager path="/search" params={Object.fromEntries(Object.entries(q).filter(([k]) => k !== 'page'))} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};

const CompareForm = ({ a, b }: { a?: string; b?: string }) => (
  <form class="filters" method="get" action="/compare">
    <div class="field">
      <label for="ca">First listing (slug)</label>
      <input id="ca" name="a" value={a ?? ''} maxLength={220} />
    </div>
    <div class="field">
      <label for="cb">Second listing (slug)</label>
      <input id="cb" name="b" value={b ?? ''} maxLength={220} />
    </div>
    <button type="submit">Compare</button>
  </form>
);

const cell = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v));

export const comparePage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['a', 'b']);
  if (!q.a || !q.b)
    return {
      meta: { title: 'Compare two listings', description: 'Side-by-side facts of two listings.', path: '/compare' },
      body: (
        <>
          <h1>Compare two listings</h1>
          <CompareForm a={q.a} b={q.b} />
        </>
      ),
    };
  const out = await readOp(deps, 'compare_listings', { query: q });
  return {
    meta: {
      title: `${out.a.name} vs ${out.b.name}`,
      description: `${out.a.name} and ${out.b.name} side by side.`,
      path: `/compare?a=${out.a.slug}&b=${out.b.slug}`,
    },
    body: (
      <>
        <h1>
          {out.a.name} vs {out.b.name}
        </h1>
        <CompareForm a={q.a} b={q.b} />
        <div class="scroll">
          <table>
            <caption>Side by side</caption>
            <thead>
              <tr>
                <th scope="col">Fact</th>
                <th scope="col">
                  <a href={`/listings/${out.a.slug}`}>{out.a.name}</a>
                </th>
                <th scope="col">
                  <a href={`/listings/${out.b.slug}`}>{out.b.name}</a>
                </th>
              </tr>
            </thead>
            <tbody>
              {out.rows.map((r: any) => (
                <tr>
                  <th scope="row">{r.label}</th>
                  <td>{cell(r.a)}</td>
                  <td>{cell(r.b)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    ),
  };
};

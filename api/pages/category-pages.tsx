import { queryOf, readOp } from './data.ts';
import { breadcrumbs, Card, Cards, FaqSection, faqLd, Pager, type Summary } from './components.tsx';
import type { Renderer } from './rendered.ts';

function CategoryTree({ items }: { items: any[] }) {
  return (
    <ul class="tree">
      {items.map((c) => (
        <li>
          <a href={`/categories/${c.slug}`}>{c.name}</a> <span class="meta">({c.count})</span>
          {c.subcategories?.length ? <CategoryTree items={c.subcategories} /> : null}
        </li>
      ))}
    </ul>
  );
}

export const categoriesPage: Renderer = async (deps) => {
  const out = await readOp(deps, 'list_categories');
  return {
    meta: { title: 'Categories', description: `Every category of ${deps.site.name} with its number of live listings.`, path: '/categories' },
    body: (
      <>
        <h1>Categories</h1>
        <CategoryTree items={out.items} />
      </>
    ),
  };
};

export const categoryPage: Renderer = async (deps, url, params) => {
  const out = await readOp(deps, 'get_category', { path: { slug: params.slug }, query: queryOf(url, ['page']) });
  const trail: [string, string][] = [
    ['/', 'Home'],
    ['/categories', 'Categories'],
  ];
  if (out.parent) trail.push([`/categories/${out.parent.slug}`, out.parent.name]);
  trail.push([`/categories/${out.slug}`, out.name]);
  const crumbs = breadcrumbs(deps.config.siteUrl, trail);
  const ld: object[] = [crumbs.ld];
  if (out.faqs?.length) ld.push(faqLd(out.faqs));
  const l = out.listings;
  return {
    meta: {
      title: `${out.name}${l.page > 1 ? `, page ${l.page}` : ''}`,
      description: out.description ?? `Live ${out.name} listings, most voted first.`,
      path: `/categories/${out.slug}${l.page > 1 ? `?page=${l.page}` : ''}`,
      jsonLd: ld,
    },
    body: (
      <>
        {crumbs.nav}
        <h1>{out.name}</h1>
        {out.description ? <p class="lede">{out.description}</p> : null}
        {out.subcategories.length ? (
          <>
            <h2>Subcategories</h2>
            <ul class="chips">
              {out.subcategories.map((s: any) => (
                <li>
                  <a href={`/categories/${s.slug}`}>{s.name}</a> ({s.count})
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <h2>Most voted</h2>
        <Cards>
          {l.items.map((i: Summary) => (
            <Card s={i} />
          ))}
        </Cards>
        <Pager path={`/categories/${out.slug}`} page={l.page} hasMore={l.has_more} />
        <FaqSection faqs={out.faqs} />
      </>
    ),
  };
};

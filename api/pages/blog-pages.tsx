import { queryOf, readOp } from './data.ts';
import { breadcrumbs, FaqSection, faqLd, Pager } from './components.tsx';
import { day } from './format.ts';
import { renderMarkdown } from './markdown.ts';
import type { Renderer } from './rendered.ts';

export const blogPage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['q', 'page']);
  const out = await readOp(deps, 'list_blog_posts', { query: q });
  return {
    meta: {
      title: `Blog${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: `Articles from ${deps.site.name} about launching and growing software products.`,
      path: `/blog${out.page > 1 ? `?page=${out.page}` : ''}`,
      feeds: [{ href: '/feeds/blog.xml', title: 'Blog' }],
      noindex: Boolean(q.q),
    },
    body: (
      <>
        <h1>Blog</h1>
        {/* biome-ignore lint/a11y/useSemanticElements: the markup the site has always sent; <search> would change it */}
        <form class="filters" method="get" action="/blog" role="search">
          <div class="field">
            <label for="bq">Search posts</label>
            <input id="bq" name="q" value={q.q ?? ''} maxLength={200} />
          </div>
          <button type="submit">Search</button>
        </form>
        {out.items.length ? (
          <ol class="posts">
            {out.items.map((p: any) => (
              <li>
                <h2>
                  <a href={`/blog/${p.slug}`}>{p.title}</a>
                </h2>
                <p class="meta">
                  {p.author ?? ''} · <time datetime={p.published_at}>{day(p.published_at)}</time>
                </p>
                <p>{p.excerpt ?? ''}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p class="empty">No posts match.</p>
        )}
        <Pager path="/blog" params={q} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};

export const blogPostPage: Renderer = async (deps, _url, params) => {
  const p = await readOp(deps, 'get_blog_post', { path: { slug: params.slug } });
  const crumbs = breadcrumbs(deps.config.siteUrl, [
    ['/', 'Home'],
    ['/blog', 'Blog'],
    [`/blog/${p.slug}`, p.title],
  ]);
  const posting = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: p.title,
    datePublished: p.published_at,
    author: p.author ? { '@type': 'Person', name: p.author } : undefined,
    description: p.excerpt ?? undefined,
    url: `${deps.config.siteUrl}/blog/${p.slug}`,
    keywords: p.tags?.join(', '),
  };
  const ld: object[] = [crumbs.ld, posting];
  if (p.faqs?.length) ld.push(faqLd(p.faqs));
  const prose = renderMarkdown(p.body_markdown, { dropFirstHeading: p.title });
  return {
    meta: {
      title: p.title,
      description: p.excerpt ?? p.title,
      path: `/blog/${p.slug}`,
      ogType: 'article',
      jsonLd: ld,
      feeds: [{ href: '/feeds/blog.xml', title: 'Blog' }],
    },
    body: (
      <>
        {crumbs.nav}
        <article class="post">
          <h1>{p.title}</h1>
          <p class="meta">
            {p.author ?? ''} · <time datetime={p.published_at}>{day(p.published_at)}</time>
          </p>
          {/* Trusted on purpose: renderMarkdown's output is sanitised to prose tags and safe links. */}
          <div class="prose" dangerouslySetInnerHTML={{ __html: prose }} />
        </article>
        <FaqSection faqs={p.faqs} />
      </>
    ),
  };
};

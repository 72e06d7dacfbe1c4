import { queryOf, readOp } from './data.ts';
import { breadcrumbs, Card, Cards, Pager, SocialList, StoryText } from './components.tsx';
import type { Renderer } from './rendered.ts';

export const foundersPage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['q', 'country', 'page']);
  const out = await readOp(deps, 'list_founders', { query: q });
  return {
    meta: {
      title: `Founders${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: `The people behind the products on ${deps.site.name}.`,
      path: `/founders${out.page > 1 ? `?page=${out.page}` : ''}`,
      noindex: Boolean(q.q || q.country),
    },
    body: (
      <>
        <h1>Founders</h1>
        {/* biome-ignore lint/a11y/useSemanticElements: the markup the site has always sent; <search> would change it */}
        <form class="filters" method="get" action="/founders" role="search">
          <div class="field">
            <label for="fq">Name</label>
            <input id="fq" name="q" value={q.q ?? ''} maxLength={120} />
          </div>
          <div class="field">
            <label for="fc">Country (two letters)</label>
            <input id="fc" name="country" value={q.country ?? ''} maxLength={2} size={3} />
          </div>
          <button type="submit">Find founders</button>
        </form>
        {out.items.length ? (
          <ul class="people">
            {out.items.map((f: any) => (
              <li>
                <a href={`/founders/${f.slug}`}>{f.name}</a>{' '}
                <span class="meta">
                  {f.title ?? ''}
                  {f.country ? ` · ${f.country}` : ''} · {f.companies} {f.companies === 1 ? 'company' : 'companies'}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p class="empty">No founders match.</p>
        )}
        <Pager path="/founders" params={q} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};

export const founderPage: Renderer = async (deps, _url, params) => {
  const f = await readOp(deps, 'get_founder', { path: { slug: params.slug } });
  const crumbs = breadcrumbs(deps.config.siteUrl, [
    ['/', 'Home'],
    ['/founders', 'Founders'],
    [`/founders/${f.slug}`, f.name],
  ]);
  const sameAs = Object.values(f.socials ?? {}).filter((u) => typeof u === 'string' && /^https?:/.test(u as string));
  const person = {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: f.name,
    jobTitle: f.title ?? undefined,
    description: f.bio ?? undefined,
    url: `${deps.config.siteUrl}/founders/${f.slug}`,
    sameAs,
  };
  return {
    meta: {
      title: f.name,
      description: (f.bio ?? `${f.name}, founder on ${deps.site.name}.`).slice(0, 300),
      path: `/founders/${f.slug}`,
      ogType: 'profile',
      jsonLd: [crumbs.ld, person],
    },
    body: (
      <>
        {crumbs.nav}
        <h1>{f.name}</h1>
        <p class="meta">
          {f.title ?? ''}
          {f.country ? ` · ${f.country}` : ''}
        </p>
        {f.bio ? <p>{f.bio}</p> : null}
        <SocialList socials={f.socials} />
        <h2>Companies</h2>
        <Cards>
          {f.companies.map((c: any) => (
            <Card s={c} metric={c.role ?? undefined} />
          ))}
        </Cards>
        {f.stories?.length ? (
          <>
            <h2>Stories</h2>
            {f.stories.map((s: any) => (
              <article class="story">
                <h3>{s.title ?? s.listing?.name ?? 'Story'}</h3>
                <StoryText story={s} />
              </article>
            ))}
          </>
        ) : null}
        {f.interview?.length ? (
          <>
            <h2>Interview</h2>
            <dl class="faq">
              {f.interview.map((a: any) => (
                <>
                  <dt>{a.question}</dt>
                  <dd>{a.answer}</dd>
                </>
              ))}
            </dl>
          </>
        ) : null}
      </>
    ),
  };
};

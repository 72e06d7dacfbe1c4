import { notFound } from '../../core/errors/index.ts';
import { readOp, queryOf, type PageDeps } from './data.ts';
import { breadcrumbs, card, cards, count, day, extLink, html, n, pager, type Html, type PageMeta, type Summary } from './layout.ts';
import { renderMarkdown } from './markdown.ts';
import { latestUpdates } from '../../sql/queries/updates.ts';

/** What a page renderer returns: its findability facts and its main content. */
export interface Rendered {
  meta: Omit<PageMeta, 'siteName' | 'siteUrl'>;
  body: Html;
  status?: number;
}
export type Renderer = (deps: PageDeps, url: URL, params: Record<string, string>) => Promise<Rendered>;

const page1 = (url: URL) => {
  const p = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(p) && p >= 1 && p <= 1000 ? p : 1;
};
const withPage = (path: string, url: URL) => (page1(url) > 1 ? `${path}?page=${page1(url)}` : path);
const money = (cents: number, currency = 'USD') => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

export const SECTIONS: Record<string, string> = {
  today: 'Launched today',
  'this-week': 'This week',
  trending: 'Trending',
  'most-voted': 'Most voted',
  recent: 'Recently launched',
  'most-viewed': 'Most viewed',
  'most-followed': 'Most followed',
  upcoming: 'Upcoming',
};
const BOARD_NAMES: Record<string, string> = {
  'community-weekly': 'Community: weekly',
  'community-all-time': 'Community: all time',
  billboard: 'Billboard (paid)',
  'domain-rating': 'Domain Rating',
  revenue: 'Revenue',
};

function sectionMetric(item: any): string {
  const m = item.metric;
  if (!m || m.value === null) return count(item.votes, 'vote');
  switch (m.name) {
    case 'trending_score':
      return `trending ${Number(m.value).toFixed(1)} · ${count(item.votes, 'vote')}`;
    case 'views':
      return count(Number(m.value), 'view');
    case 'follows':
      return count(Number(m.value), 'follower');
    case 'launched_at':
      return `launched ${day(String(m.value))}`;
    case 'launch_week':
      return `launches week of ${day(String(m.value))}`;
    default:
      return count(Number(m.value), 'vote');
  }
}

export const home: Renderer = async (deps) => {
  const [week, trending, upcoming, updates] = await Promise.all([
    readOp(deps, 'get_launch_week', { path: { week: 'this' }, query: { per_page: '20' } }),
    readOp(deps, 'list_launches', { query: { section: 'trending', per_page: '10' } }),
    readOp(deps, 'list_launches', { query: { section: 'upcoming', per_page: '6' } }),
    latestUpdates(deps.sql, deps.site.id, 1, 5),
  ]);
  // The featured row: listings on the paid plan (the "Featured" badge), from this week and what is trending.
  const seen = new Set<number>();
  const featured = [...week.items.map((i: any) => i.listing), ...trending.items]
    .filter((l: Summary) => {
      if (l.plan !== 'paid' || seen.has(l.id)) return false;
      seen.add(l.id);
      return true;
    })
    .slice(0, 4);
  const body = html`<h1>${deps.site.name}</h1><p class="lede">${deps.site.purpose}</p>
<section aria-labelledby="featured"><h2 id="featured">Featured</h2>${cards(
    featured.map((l: Summary) => card(l, { badge: 'Featured' })),
    'No featured listings this week.',
  )}</section>
<section aria-labelledby="week"><h2 id="week">This week's launches</h2><p class="meta">Week of ${week.week} to ${week.week_end}, ranked by community votes. <a href="/launches/weeks/${week.week}">The whole week</a></p>
${cards(
  week.items.map((i: any) => card(i.listing, { rank: i.rank, metric: `${count(i.votes, 'vote')} this week` })),
  'No launches yet this week.',
)}</section>
<section aria-labelledby="trending"><h2 id="trending">Trending</h2>${cards(trending.items.map((i: any) => card(i, { metric: sectionMetric(i) })))}
<p><a href="/launches?section=trending">More trending</a></p></section>
<section aria-labelledby="upcoming"><h2 id="upcoming">Upcoming</h2>${cards(
    upcoming.items.map((i: any) => card(i, { metric: sectionMetric(i) })),
    'Nothing scheduled yet.',
  )}
<p><a href="/launches?section=upcoming">All upcoming launches</a></p></section>
<section aria-labelledby="updates"><h2 id="updates">Newest updates</h2>${updateList(updates.items)}<p><a href="/updates">All updates</a></p></section>`;
  return {
    meta: {
      title: `${deps.site.name}: software launches of the week`,
      description: `${deps.site.purpose} This week's launches ranked by community votes, trending and upcoming products.`,
      path: '/',
      feeds: [{ href: '/feeds/launches.xml', title: 'Launches' }],
    },
    body,
  };
};

function updateList(items: Awaited<ReturnType<typeof latestUpdates>>['items']): Html {
  if (!items.length) return html`<p class="empty">No updates yet.</p>`;
  return html`<ol class="updates">${items.map(
    (u) => html`<li><h3><a href="/listings/${u.listing_slug}">${u.listing_name}</a>: ${u.title}</h3>
<p class="meta"><time datetime="${u.created_at}">${day(u.created_at)}</time></p><p class="text">${u.body}</p></li>`,
  )}</ol>`;
}

export const updatesPage: Renderer = async (deps, url) => {
  const page = page1(url);
  const out = await latestUpdates(deps.sql, deps.site.id, page, 20);
  return {
    meta: {
      title: page > 1 ? `Latest updates, page ${page}` : 'Latest updates',
      description: 'What the products listed here shipped lately: their newest updates, newest first.',
      path: withPage('/updates', url),
    },
    body: html`<h1>Latest updates</h1>${updateList(out.items)}${pager('/updates', {}, page, out.has_more)}`,
  };
};

export const launchesPage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['section', 'page']);
  const section = q.section ?? 'this-week';
  const out = await readOp(deps, 'list_launches', { query: q });
  const tabs = Object.entries(SECTIONS).map(([k, label]) =>
    k === section
      ? html`<li><a href="/launches?section=${k}" aria-current="page">${label}</a></li>`
      : html`<li><a href="/launches?section=${k}">${label}</a></li>`,
  );
  const title = `Launches: ${SECTIONS[section]}`;
  return {
    meta: {
      title: out.page > 1 ? `${title}, page ${out.page}` : title,
      description: `${SECTIONS[section]} on ${deps.site.name}: software launches ranked and listed by section.`,
      path: `/launches?section=${section}${out.page > 1 ? `&page=${out.page}` : ''}`,
      feeds: [{ href: '/feeds/launches.xml', title: 'Launches' }],
    },
    body: html`<h1>Launches</h1><nav aria-label="Sections"><ul class="tabs">${tabs}</ul></nav><h2>${SECTIONS[section]}</h2>
<p><a href="/launches/weeks/this">This week</a> · <a href="/launches/weeks/last">Last week</a> · <a href="/launches/weeks/next">Next week</a></p>
${cards(out.items.map((i: any) => card(i, { rank: i.rank, metric: sectionMetric(i) })))}${pager('/launches', { section }, out.page, out.has_more)}`,
  };
};

const addDays = (iso: string, d: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + d * 86400000).toISOString().slice(0, 10);

export const launchWeekPage: Renderer = async (deps, url, params) => {
  const out = await readOp(deps, 'get_launch_week', { path: { week: params.week }, query: queryOf(url, ['page']) });
  const prev = addDays(out.week, -7);
  const next = addDays(out.week, 7);
  const label = out.label ? ` (${out.label} week)` : '';
  return {
    meta: {
      title: `Launches of the week of ${out.week}${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: `Software launched on ${deps.site.name} from ${out.week} to ${out.week_end}, ranked by community votes.`,
      path: `/launches/weeks/${out.week}${out.page > 1 ? `?page=${out.page}` : ''}`,
    },
    body: html`<h1>Week of ${out.week}${label}</h1><p class="meta">${out.week} to ${out.week_end}. ${out.is_future ? 'Scheduled launches for this week.' : 'Live launches ranked by community votes cast during the week.'}</p>
<nav class="pager" aria-label="Weeks"><a rel="prev" href="/launches/weeks/${prev}">Previous week</a><a rel="next" href="/launches/weeks/${next}">Next week</a></nav>
${cards(
  out.items.map((i: any) =>
    card(i.listing, { rank: out.is_future ? null : i.rank, metric: out.is_future ? 'scheduled' : `${count(i.votes, 'vote')} this week` }),
  ),
  'No launches this week.',
)}
${pager(`/launches/weeks/${out.week}`, {}, out.page, out.has_more)}`,
  };
};

export const leaderboardsIndex: Renderer = async (_deps) => ({
  meta: {
    title: 'Leaderboards',
    description: 'Five separate rankings: community votes this week and of all time, the paid billboard, Domain Rating and revenue.',
    path: '/leaderboards',
  },
  body: html`<h1>Leaderboards</h1><p>Each ranking stands on its own. Awards follow community votes only; the billboard is paid.</p>
<ul class="boards">${Object.entries(BOARD_NAMES).map(([k, v]) => html`<li><a href="/leaderboards/${k}">${v}</a>${k === 'billboard' ? html` <span class="tag paid">Paid</span>` : ''}</li>`)}</ul>`,
});

export const leaderboardPage: Renderer = async (deps, url, params) => {
  const out = await readOp(deps, 'get_leaderboard', { path: { board: params.board }, query: queryOf(url, ['week', 'page']) });
  const metric = (i: any): string => {
    const m = i.metric;
    switch (m.name) {
      case 'amount_cents':
        return `${money(m.value, m.currency)} paid · ${m.contributions} payments`;
      case 'domain_rating':
        return `DR ${m.value}${m.trend === null || m.trend === undefined ? '' : ` (${m.trend >= 0 ? '+' : ''}${m.trend})`}`;
      case 'mrr_cents':
        return `${money(m.value, m.currency)} MRR${m.verified ? ' (verified)' : ''}`;
      default:
        return count(Number(m.value), 'vote');
    }
  };
  const tabs = Object.entries(BOARD_NAMES).map(([k, v]) =>
    k === out.board ? html`<li><a href="/leaderboards/${k}" aria-current="page">${v}</a></li>` : html`<li><a href="/leaderboards/${k}">${v}</a></li>`,
  );
  return {
    meta: {
      title: `Leaderboard: ${out.title}${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: out.description,
      path: `/leaderboards/${out.board}${out.page > 1 ? `?page=${out.page}` : ''}`,
    },
    body: html`<h1>${out.title}</h1><nav aria-label="Leaderboards"><ul class="tabs">${tabs}</ul></nav>
${out.paid ? html`<p class="paid-note" role="note"><strong>Paid ranking.</strong> ${out.disclosure}</p>` : ''}<p>${out.description}</p>
${cards(out.items.map((i: any) => card(i.listing, { rank: i.rank, metric: metric(i), badge: out.paid ? 'Paid' : undefined })))}
${pager(`/leaderboards/${out.board}`, queryOf(url, ['week']), out.page, out.has_more)}`,
  };
};

export const categoriesPage: Renderer = async (deps) => {
  const out = await readOp(deps, 'list_categories');
  const tree = (items: any[]): Html =>
    html`<ul class="tree">${items.map((c) => html`<li><a href="/categories/${c.slug}">${c.name}</a> <span class="meta">(${c.count})</span>${c.subcategories?.length ? tree(c.subcategories) : ''}</li>`)}</ul>`;
  return {
    meta: { title: 'Categories', description: `Every category of ${deps.site.name} with its number of live listings.`, path: '/categories' },
    body: html`<h1>Categories</h1>${tree(out.items)}`,
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
    body: html`${crumbs.nav}<h1>${out.name}</h1>${out.description ? html`<p class="lede">${out.description}</p>` : ''}
${out.subcategories.length ? html`<h2>Subcategories</h2><ul class="chips">${out.subcategories.map((s: any) => html`<li><a href="/categories/${s.slug}">${s.name}</a> (${s.count})</li>`)}</ul>` : ''}
<h2>Most voted</h2>${cards(l.items.map((i: Summary) => card(i)))}${pager(`/categories/${out.slug}`, {}, l.page, l.has_more)}${faqSection(out.faqs)}`,
  };
};

export function faqLd(faqs: { question: string; answer: string }[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map((f) => ({ '@type': 'Question', name: f.question, acceptedAnswer: { '@type': 'Answer', text: f.answer } })),
  };
}
export function faqSection(faqs: { question: string; answer: string }[] | undefined): Html {
  if (!faqs?.length) return html``;
  return html`<section aria-labelledby="faq"><h2 id="faq">Questions</h2><dl class="faq">${faqs.map((f) => html`<dt>${f.question}</dt><dd>${f.answer}</dd>`)}</dl></section>`;
}

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
    body: html`<h1>Founders</h1><form class="filters" method="get" action="/founders" role="search"><div class="field"><label for="fq">Name</label><input id="fq" name="q" value="${q.q ?? ''}" maxlength="120"></div>
<div class="field"><label for="fc">Country (two letters)</label><input id="fc" name="country" value="${q.country ?? ''}" maxlength="2" size="3"></div><button type="submit">Find founders</button></form>
${out.items.length ? html`<ul class="people">${out.items.map((f: any) => html`<li><a href="/founders/${f.slug}">${f.name}</a> <span class="meta">${f.title ?? ''}${f.country ? ` · ${f.country}` : ''} · ${f.companies} ${f.companies === 1 ? 'company' : 'companies'}</span></li>`)}</ul>` : html`<p class="empty">No founders match.</p>`}
${pager('/founders', { ...q }, out.page, out.has_more)}`,
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
    body: html`${crumbs.nav}<h1>${f.name}</h1><p class="meta">${f.title ?? ''}${f.country ? ` · ${f.country}` : ''}</p>${f.bio ? html`<p>${f.bio}</p>` : ''}
${socialList(f.socials)}<h2>Companies</h2>${cards(f.companies.map((c: any) => card(c, { metric: c.role ?? undefined })))}
${f.stories?.length ? html`<h2>Stories</h2>${f.stories.map((s: any) => html`<article class="story"><h3>${s.title ?? s.listing?.name ?? 'Story'}</h3>${storyText(s)}</article>`)}` : ''}
${f.interview?.length ? html`<h2>Interview</h2><dl class="faq">${f.interview.map((a: any) => html`<dt>${a.question}</dt><dd>${a.answer}</dd>`)}</dl>` : ''}`,
  };
};

const STORY_PARTS: [string, string][] = [
  ['story', 'Story'],
  ['why_started', 'Why we started'],
  ['problem', 'The problem'],
  ['journey', 'The journey'],
  ['challenges', 'Challenges'],
  ['achievements', 'Achievements'],
  ['lessons', 'Lessons'],
  ['whats_next', 'What is next'],
];
export function storyText(s: Record<string, any>): Html {
  return html`${STORY_PARTS.filter(([k]) => s[k]).map(([k, label]) => html`<h4>${label}</h4><p class="text">${s[k]}</p>`)}`;
}

export function socialList(socials: Record<string, string> | undefined): Html {
  const entries = Object.entries(socials ?? {});
  if (!entries.length) return html``;
  return html`<ul class="chips">${entries.map(([k, v]) => html`<li>${extLink(v, k)}</li>`)}</ul>`;
}

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
    body: html`<h1>Blog</h1><form class="filters" method="get" action="/blog" role="search"><div class="field"><label for="bq">Search posts</label><input id="bq" name="q" value="${q.q ?? ''}" maxlength="200"></div><button type="submit">Search</button></form>
${out.items.length ? html`<ol class="posts">${out.items.map((p: any) => html`<li><h2><a href="/blog/${p.slug}">${p.title}</a></h2><p class="meta">${p.author ?? ''} · <time datetime="${p.published_at}">${day(p.published_at)}</time></p><p>${p.excerpt ?? ''}</p></li>`)}</ol>` : html`<p class="empty">No posts match.</p>`}
${pager('/blog', q, out.page, out.has_more)}`,
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
  return {
    meta: {
      title: p.title,
      description: p.excerpt ?? p.title,
      path: `/blog/${p.slug}`,
      ogType: 'article',
      jsonLd: ld,
      feeds: [{ href: '/feeds/blog.xml', title: 'Blog' }],
    },
    body: html`${crumbs.nav}<article class="post"><h1>${p.title}</h1><p class="meta">${p.author ?? ''} · <time datetime="${p.published_at}">${day(p.published_at)}</time></p>
<div class="prose">${renderMarkdown(p.body_markdown, { dropFirstHeading: p.title })}</div></article>${p.title && !/^#\s/.test(p.body_markdown ?? '') ? '' : ''}${faqSection(p.faqs)}`,
  };
};

export const awardsPage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['listing', 'page']);
  const out = await readOp(deps, 'list_awards', { query: q });
  return {
    meta: {
      title: `Awards${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: 'Launch of the Week #1, #2 and #3, decided by community votes, newest week first.',
      path: `/awards${out.page > 1 ? `?page=${out.page}` : ''}`,
      noindex: Boolean(q.listing),
    },
    body: html`<h1>Awards</h1><p>Launch of the Week awards follow community votes only.</p>
${out.items.length ? html`<ol class="cards">${out.items.map((a: any) => html`<li class="card"><span class="rank">#${a.rank}</span><div class="card-body"><h3><a href="/listings/${a.listing.slug}">${a.listing.name}</a></h3><p>${a.title}, week of <a href="/launches/weeks/${a.week}">${a.week}</a> · ${n(a.votes)} votes</p></div></li>`)}</ol>` : html`<p class="empty">No awards yet.</p>`}
${pager('/awards', q, out.page, out.has_more)}`,
  };
};

export const searchPage: Renderer = async (deps, url) => {
  const keys = ['q', 'category', 'stage', 'country', 'pricing_model', 'domain', 'status', 'sort', 'page'];
  const q = queryOf(url, keys);
  const out = await readOp(deps, 'search_listings', { query: q });
  const cats = await readOp(deps, 'list_categories');
  const catOptions = cats.items.flatMap((c: any) => [c, ...(c.subcategories ?? []).map((s: any) => ({ ...s, name: `— ${s.name}` }))]);
  const opt = (value: string, label: string, current?: string) =>
    value === (current ?? '') ? html`<option value="${value}" selected>${label}</option>` : html`<option value="${value}">${label}</option>`;
  const sorts: [string, string][] = [
    ['relevance', 'Relevance'],
    ['newest', 'Newest'],
    ['votes', 'Most votes'],
    ['trending', 'Trending'],
    ['most_viewed', 'Most viewed'],
    ['most_followed', 'Most followed'],
  ];
  const title = q.q ? `Search: ${q.q}` : 'Search';
  return {
    meta: {
      title,
      description: `Search the listings of ${deps.site.name} by name, tagline, description and keywords, with filters.`,
      path: '/search',
      noindex: Object.keys(q).length > 0,
    },
    body: html`<h1>Search</h1><form class="filters search" method="get" action="/search" role="search">
<div class="field"><label for="sq">Words</label><input id="sq" name="q" type="search" value="${q.q ?? ''}" maxlength="200"></div>
<div class="field"><label for="scat">Category</label><select id="scat" name="category">${opt('', 'Any', q.category)}${catOptions.map((c: any) => opt(c.slug, c.name, q.category))}</select></div>
<div class="field"><label for="scountry">Country (two letters)</label><input id="scountry" name="country" value="${q.country ?? ''}" maxlength="2" size="3"></div>
<div class="field"><label for="spricing">Pricing model</label><input id="spricing" name="pricing_model" value="${q.pricing_model ?? ''}" maxlength="40"></div>
<div class="field"><label for="sstatus">Status</label><select id="sstatus" name="status">${opt('live', 'Live', q.status ?? 'live')}${opt('upcoming', 'Upcoming', q.status)}</select></div>
<div class="field"><label for="ssort">Sort</label><select id="ssort" name="sort">${sorts.map(([v, l]) => opt(v, l, q.sort ?? 'relevance'))}</select></div>
<button type="submit">Search</button></form>
<p class="meta" role="status">${n(out.total)} ${out.total === 1 ? 'listing' : 'listings'}</p>
${cards(
  out.items.map((i: Summary) => card(i)),
  'No listings match. Try fewer words or filters.',
)}
${pager('/search', Object.fromEntries(Object.entries(q).filter(([k]) => k !== 'page')), out.page, out.has_more)}`,
  };
};

export const comparePage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['a', 'b']);
  const form = html`<form class="filters" method="get" action="/compare"><div class="field"><label for="ca">First listing (slug)</label><input id="ca" name="a" value="${q.a ?? ''}" maxlength="220"></div>
<div class="field"><label for="cb">Second listing (slug)</label><input id="cb" name="b" value="${q.b ?? ''}" maxlength="220"></div><button type="submit">Compare</button></form>`;
  if (!q.a || !q.b)
    return {
      meta: { title: 'Compare two listings', description: 'Side-by-side facts of two listings.', path: '/compare' },
      body: html`<h1>Compare two listings</h1>${form}`,
    };
  const out = await readOp(deps, 'compare_listings', { query: q });
  const cell = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return {
    meta: {
      title: `${out.a.name} vs ${out.b.name}`,
      description: `${out.a.name} and ${out.b.name} side by side.`,
      path: `/compare?a=${out.a.slug}&b=${out.b.slug}`,
    },
    body: html`<h1>${out.a.name} vs ${out.b.name}</h1>${form}<div class="scroll"><table><caption>Side by side</caption><thead><tr><th scope="col">Fact</th><th scope="col"><a href="/listings/${out.a.slug}">${out.a.name}</a></th><th scope="col"><a href="/listings/${out.b.slug}">${out.b.name}</a></th></tr></thead>
<tbody>${out.rows.map((r: any) => html`<tr><th scope="row">${r.label}</th><td>${cell(r.a)}</td><td>${cell(r.b)}</td></tr>`)}</tbody></table></div>`,
  };
};

export const pricingPage: Renderer = async (deps) => {
  const out = await readOp(deps, 'list_products');
  return {
    meta: {
      title: 'Products and prices',
      description: `What you can buy on ${deps.site.name}: paid launches, featured placement, the billboard and more, at current prices.`,
      path: '/pricing',
    },
    body: html`<h1>Products and prices</h1><p>Free listings are always possible: they wait in the free queue and go live once our badge is on your homepage.</p>
<ul class="products">${out.items.map((p: any) => html`<li><h2>${p.name}</h2><p class="price">${p.price ? money(p.price.amount_cents, p.price.currency) : ''}${p.min_amount_cents ? html` (at least ${money(p.min_amount_cents, p.price?.currency ?? 'USD')})` : ''}</p><p>${p.description ?? ''}</p></li>`)}</ul>`,
  };
};

export const notFoundRenderer = (): Rendered => ({
  meta: { title: 'Page not found', description: 'There is nothing at this address.', path: '/404', noindex: true },
  body: html`<h1>Page not found</h1><p>There is nothing at this address. Try <a href="/search">searching</a> or go to the <a href="/">home page</a>.</p>`,
  status: 404,
});

export { notFound };

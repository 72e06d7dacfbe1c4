import type { ListingSummaryRow } from '../../sql/queries/summaries.ts';
import { html, Html } from '../site/html.ts';

export { html, Html };

/** What every public page says about itself: the frame turns it into title, meta, canonical and OpenGraph tags. */
export interface PageMeta {
  title: string;
  description: string;
  /** Path of the canonical URL (query included only where it names a different page, e.g. ?page=2). */
  path: string;
  siteName: string;
  siteUrl: string;
  ogType?: 'website' | 'article' | 'profile';
  image?: string | null;
  /** JSON-LD objects, each rendered as its own application/ld+json block. */
  jsonLd?: object[];
  /** Atom feeds to announce with <link rel="alternate">. */
  feeds?: { href: string; title: string }[];
  noindex?: boolean;
}

export interface Viewer {
  email: string;
}

const NAV: [string, string][] = [
  ['/', 'Home'],
  ['/launches', 'Launches'],
  ['/leaderboards', 'Leaderboards'],
  ['/categories', 'Categories'],
  ['/founders', 'Founders'],
  ['/blog', 'Blog'],
  ['/awards', 'Awards'],
  ['/updates', 'Updates'],
  ['/search', 'Search'],
  ['/pricing', 'Pricing'],
];

/** JSON for a <script type="application/ld+json"> block: '<' is escaped so no text can close the element. */
export const jsonLdText = (o: object) => JSON.stringify(o).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/** The page frame of the public site: head with findability tags, header with the site's name and navigation, main, footer. */
export function frame(meta: PageMeta, body: Html, viewer: Viewer | null): string {
  const canonical = meta.siteUrl + meta.path;
  const current = meta.path.split('?')[0];
  const nav = NAV.map(([href, label]) => {
    const here = href === '/' ? current === '/' : current === href || current.startsWith(`${href}/`);
    return here ? html`<li><a href="${href}" aria-current="page">${label}</a></li>` : html`<li><a href="${href}">${label}</a></li>`;
  });
  const who = viewer
    ? html`<span class="who">Signed in as ${viewer.email}</span> <a href="/account">Account</a>`
    : html`<a href="/sign-in?return_to=${encodeURIComponent(meta.path)}">Sign in</a>`;
  const ld = (meta.jsonLd ?? []).map((o) => new Html(`<script type="application/ld+json">${jsonLdText(o)}</script>`));
  const feeds = (meta.feeds ?? []).map((f) => html`<link rel="alternate" type="application/atom+xml" title="${f.title}" href="${f.href}">`);
  const title = meta.path === '/' ? meta.title : `${meta.title} | ${meta.siteName}`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><meta name="description" content="${meta.description.slice(0, 300)}"><link rel="canonical" href="${canonical}">
${meta.noindex ? html`<meta name="robots" content="noindex">` : ''}<meta property="og:site_name" content="${meta.siteName}"><meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description.slice(0, 300)}"><meta property="og:type" content="${meta.ogType ?? 'website'}"><meta property="og:url" content="${canonical}">
${meta.image ? html`<meta property="og:image" content="${meta.image}">` : ''}<meta name="twitter:card" content="summary">
<link rel="stylesheet" href="/assets/site.css"><script src="/assets/site.js" defer></script>${feeds}${ld}</head>
<body><a class="skip" href="#main">Skip to content</a><header class="top"><a class="brand" href="/">${meta.siteName}</a>
<nav aria-label="Main"><ul>${nav}</ul></nav><div class="account">${who}</div></header>
<main id="main">${body}</main>
<footer><p><a href="/docs">API &amp; MCP docs</a> · <a href="/feeds/launches.xml">Launches feed</a> · <a href="/feeds/blog.xml">Blog feed</a> · <a href="/sitemap.xml">Sitemap</a></p>
<p>Rankings follow community votes; the billboard is a paid ranking and always marked as paid.</p></footer></body></html>`.value;
}

/** Content-Security-Policy of public pages: our own stylesheet and script only, images from anywhere over https. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const pageHeaders = (extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  ...extra,
});

// ---- small shared pieces --------------------------------------------------------------------

export const n = (x: number) => new Intl.NumberFormat('en-US').format(x);
/** "1 vote", "12 votes" */
export const count = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;
export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

/** Only http(s) links are rendered as links: a javascript: or data: URL stays text. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

export function extLink(url: string | null | undefined, label: unknown): Html {
  const href = safeHref(url);
  return href ? html`<a href="${href}" rel="nofollow noopener ugc">${label}</a>` : html`${label}`;
}

/** A listing summary as the list operations return it (one shape, defined with its query). */
export type Summary = ListingSummaryRow;

/** One listing in a list: name linking to its page, tagline, category and a metric. */
export function card(s: Summary, opts: { rank?: number | null; metric?: Html | string; badge?: string } = {}): Html {
  const path = `/listings/${s.slug}`;
  return html`<li class="card">${opts.rank ? html`<span class="rank">#${opts.rank}</span>` : ''}
<div class="card-body"><h3><a href="${path}">${s.name}</a>${opts.badge ? html` <span class="tag">${opts.badge}</span>` : ''}</h3>
${s.tagline ? html`<p>${s.tagline}</p>` : ''}<p class="meta">${s.category ? html`<a href="/categories/${s.category.slug}">${s.category.name}</a> · ` : ''}${opts.metric ?? count(s.votes, 'vote')}</p></div></li>`;
}

export const cards = (items: Html[], empty = 'Nothing here yet.') =>
  items.length ? html`<ol class="cards">${items}</ol>` : html`<p class="empty">${empty}</p>`;

/** Previous/next page links for a paged list. */
export function pager(path: string, params: Record<string, string>, page: number, hasMore: boolean): Html {
  const link = (p: number) => {
    const q = new URLSearchParams(params);
    q.delete('page');
    if (p > 1) q.set('page', String(p));
    const s = q.toString();
    return `${path}${s ? `?${s}` : ''}`;
  };
  if (page <= 1 && !hasMore) return html``;
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a rel="prev" href="${link(page - 1)}">Previous page</a>` : ''}
<span>Page ${page}</span>${hasMore ? html`<a rel="next" href="${link(page + 1)}">Next page</a>` : ''}</nav>`;
}

export function breadcrumbs(siteUrl: string, trail: [string, string][]): { nav: Html; ld: object } {
  const nav = html`<nav aria-label="Breadcrumb" class="crumbs"><ol>${trail.map(([href, name], i) =>
    i === trail.length - 1 ? html`<li><a href="${href}" aria-current="page">${name}</a></li>` : html`<li><a href="${href}">${name}</a></li>`,
  )}</ol></nav>`;
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map(([href, name], i) => ({ '@type': 'ListItem', position: i + 1, name, item: siteUrl + href })),
  };
  return { nav, ld };
}

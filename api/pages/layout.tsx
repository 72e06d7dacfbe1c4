import type { VNode } from 'preact';
import { renderDocument } from '../view/document.tsx';
import { jsonLdText } from './format.ts';

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

/** The site's main navigation (also in the account pages' frame). */
export function MainNav({ path }: { path: string }) {
  const current = path.split('?')[0];
  return (
    <nav aria-label="Main">
      <ul>
        {NAV.map(([href, label]) => {
          const here = href === '/' ? current === '/' : current === href || current.startsWith(`${href}/`);
          return (
            <li>
              <a href={href} aria-current={here ? 'page' : undefined}>
                {label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Head({ meta }: { meta: PageMeta }) {
  const canonical = meta.siteUrl + meta.path;
  const title = meta.path === '/' ? meta.title : `${meta.title} | ${meta.siteName}`;
  const description = meta.description.slice(0, 300);
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width,initial-scale=1" />
      <title>{title}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={canonical} />
      {meta.noindex && <meta name="robots" content="noindex" />}
      <meta property="og:site_name" content={meta.siteName} />
      <meta property="og:title" content={meta.title} />
      <meta property="og:description" content={description} />
      <meta property="og:type" content={meta.ogType ?? 'website'} />
      <meta property="og:url" content={canonical} />
      {meta.image && <meta property="og:image" content={meta.image} />}
      <meta name="twitter:card" content="summary" />
      <link rel="stylesheet" href="/assets/site.css" />
      <script src="/assets/site.js" defer />
      {(meta.feeds ?? []).map((f) => (
        <link rel="alternate" type="application/atom+xml" title={f.title} href={f.href} />
      ))}
      {(meta.jsonLd ?? []).map((o) => (
        // Trusted on purpose: jsonLdText escapes < > & as \u003c etc., so no text can end the element.
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(o) }} />
      ))}
    </head>
  );
}

/** The page frame of the public site: head with findability tags, header with the site's name and navigation, main, footer. */
export function frame(meta: PageMeta, body: VNode, viewer: Viewer | null): string {
  return renderDocument(
    <html lang="en">
      <Head meta={meta} />
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/">
            {meta.siteName}
          </a>
          <MainNav path={meta.path} />
          <div class="account">
            {viewer ? (
              <>
                <span class="who">Signed in as {viewer.email}</span> <a href="/account">Account</a>
              </>
            ) : (
              <a href={`/sign-in?return_to=${encodeURIComponent(meta.path)}`}>Sign in</a>
            )}
          </div>
        </header>
        <main id="main">{body}</main>
        <footer>
          <p>
            <a href="/docs">API &amp; MCP docs</a> · <a href="/feeds/launches.xml">Launches feed</a> · <a href="/feeds/blog.xml">Blog feed</a> ·{' '}
            <a href="/sitemap.xml">Sitemap</a>
          </p>
          <p>Rankings follow community votes; the billboard is a paid ranking and always marked as paid.</p>
        </footer>
      </body>
    </html>,
  );
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

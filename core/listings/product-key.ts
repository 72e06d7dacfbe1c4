// What "the same product" means for one public listing per site: its normalised site. Usually
// the host without www.; on hosting platforms many products share a host, and the list below is
// the one place that says which.
import type { Sql } from '../../sql/db.ts';
import { DomainError } from '../errors/index.ts';
import { ownsListing } from './own-listing.ts';

/** Hosts where each product lives under its own first path segment (github.com/acme/...). */
export const PATH_SHARED_HOSTS = [
  'github.com',
  'gitlab.com',
  'bitbucket.org',
  'codeberg.org',
  'notion.site',
  'sites.google.com',
  'huggingface.co',
  'npmjs.com',
  'pypi.org',
  'medium.com',
  'linktr.ee',
  'gumroad.com',
  'itch.io',
  'chrome.google.com',
  'chromewebstore.google.com',
  'apps.apple.com',
  'play.google.com',
  'producthunt.com',
];

/**
 * Platforms that give each user a subdomain. On most of them the subdomain is one product
 * (acme.vercel.app), and the host alone is the key; on the project-page ones (user.github.io/tool)
 * a user's subdomain holds several products, so the first path segment is part of the key.
 */
export const SUBDOMAIN_SHARED_SUFFIXES = [
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'herokuapp.com',
  'fly.dev',
  'onrender.com',
  'web.app',
  'firebaseapp.com',
  'glitch.me',
  'replit.app',
  'webflow.io',
  'framer.website',
  'carrd.co',
  'substack.com',
  'github.io',
  'gitlab.io',
];
const PROJECT_PAGE_SUFFIXES = ['github.io', 'gitlab.io'];

const endsWith = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/** True for a host many unrelated products share (a hosting platform), where a domain proves nothing about one product. */
export const isSharedHost = (host: string) => {
  const h = host.toLowerCase().replace(/^www\./, '');
  return PATH_SHARED_HOSTS.some((s) => endsWith(h, s)) || SUBDOMAIN_SHARED_SUFFIXES.some((s) => endsWith(h, s));
};

/**
 * The product a URL is: the host without www. (with its port when that is not the scheme's own: a
 * site is its origin), plus the first path segment on path-shared hosts.
 */
export function productKey(url: string): string {
  const u = new URL(url);
  const name = u.hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  const host = u.port ? `${name}:${u.port}` : name;
  const byPath =
    PATH_SHARED_HOSTS.some((s) => endsWith(name, s)) ||
    PROJECT_PAGE_SUFFIXES.some((s) => name !== s && endsWith(name, s) && name.split('.').length === s.split('.').length + 1);
  if (!byPath) return host;
  const first = u.pathname.split('/').find((p) => p !== '') ?? '';
  return first ? `${host}/${decodeURIComponent(first).toLowerCase()}` : host;
}

/** Listing statuses that are public, or on their way to it: a product has at most one of them per site. */
export const PUBLIC_STATUSES = ['live', 'scheduled', 'awaiting_badge'] as const;

export interface ExistingListing {
  id: number;
  slug: string;
  name: string;
  /** Whether the asking user owns it (or co-owns it). */
  mine: boolean;
}

/**
 * The product's public (or queued) listing on the site other than `except`, taking a lock on the
 * product's key first so two publishers of one product are serialised until commit.
 */
export async function publicListingOfProduct(
  t: Sql,
  siteId: number,
  url: string,
  opts: { except?: number | null; userId?: string | null } = {},
): Promise<ExistingListing | null> {
  const key = productKey(url);
  await t`select pg_advisory_xact_lock(hashtext('product-listing'), hashtext(${`${siteId}:${key}`}))`;
  const host = key.split('/')[0]!.replace(/:\d+$/, '');
  // Candidates by domain (indexed), then the key compared here, where the shared-host rules live.
  const rows = await t<(ExistingListing & { url: string })[]>`
    select l.id::int, l.slug, l.name, l.url, ${opts.userId ? ownsListing(t, opts.userId) : t`false`} as mine from listings l
    where l.site_id = ${siteId} and lower(l.domain) in (${host}, ${`www.${host}`}) and l.status = any(${PUBLIC_STATUSES as unknown as string[]}::text[])
      and l.id is distinct from ${opts.except ?? null}::bigint
    order by l.id`;
  const hit = rows.find((r) => {
    try {
      return productKey(r.url) === key;
    } catch {
      return false;
    }
  });
  return hit ? { id: hit.id, slug: hit.slug, name: hit.name, mine: hit.mine } : null;
}

/** 409 listing_exists: the product's listing on this site, and how to claim it instead. */
export function listingExists(existing: ExistingListing): DomainError {
  const page = `/listings/${existing.slug}`;
  const detail = existing.mine
    ? `${existing.name} is already listed on this site (${page}), and that listing is yours: edit it instead of listing it again.`
    : `${existing.name} is already listed on this site (${page}). If it is your product, claim that listing (claim_listing with slug "${existing.slug}") instead of listing it again.`;
  return new DomainError('listing_exists', detail, {
    extensions: {
      existing_listing: { slug: existing.slug, name: existing.name, page },
      ...(existing.mine ? {} : { claim: { operation: 'claim_listing', method: 'POST', path: '/api/v1/claims', body: { slug: existing.slug } } }),
    },
  });
}

/** Refuses (409 listing_exists) when the product already has a public listing on the site other than `except`. */
export async function assertNotListed(t: Sql, siteId: number, url: string, opts: { except?: number | null; userId?: string | null } = {}): Promise<void> {
  const existing = await publicListingOfProduct(t, siteId, url, opts);
  if (existing) throw listingExists(existing);
}

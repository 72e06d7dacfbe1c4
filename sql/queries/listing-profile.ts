import type { Sql } from '../db.ts';

// Timestamps go out as ISO strings in UTC, dates as YYYY-MM-DD.
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

export interface ListingProfileRow {
  id: number;
  slug: string;
  name: string;
  url: string;
  domain: string;
  profile_url: string;
  tagline: string | null;
  short_description: string | null;
  description: string | null;
  headline: string | null;
  summary: string | null;
  features: string[];
  usps: string[];
  keywords: string[];
  pricing: { model: string | null; summary: string | null };
  stage: string | null;
  country: string | null;
  city: string | null;
  founded_year: number | null;
  demo_video_url: string | null;
  contact_email: string | null;
  logo_url: string | null;
  seo: { title: string | null; description: string | null };
  categories: { slug: string; name: string; primary: boolean; parent: { slug: string; name: string } | null }[];
  founders: { slug: string; name: string; title: string | null; avatar_url: string | null; socials: Record<string, string>; primary: boolean }[];
  faqs: { question: string; answer: string }[];
  socials: Record<string, string>;
  latest_updates: { id: number; title: string; body: string; created_at: string }[];
  community_rating: { average: number | null; count: number };
  domain_rating: { rating: number; trend: number | null; measured_on: string; history: { measured_on: string; rating: number }[] } | null;
  links: { website: string; profile: string; badges: string; alternatives: string };
  votes: number;
  follows: number;
  views: number;
  launch_week: string | null;
  launched_at: string | null;
  plan: string;
  not_found_on_website: string[];
  story: {
    title: string | null;
    story: string | null;
    why_started: string | null;
    problem: string | null;
    journey: string | null;
    challenges: string | null;
    achievements: string | null;
    lessons: string | null;
    whats_next: string | null;
    updated_at: string;
  } | null;
  milestones: { id: number; date: string; title: string; description: string | null; url: string | null }[] | null;
  media: { kind: 'image' | 'video'; url: string; caption: string | null }[] | null;
  featured_until: string | null;
  ai_review: { body: string; quotes: { quote: string; url: string }[]; created_at: string } | null;
}

/** The live parts of a profile, read beside its stored document. */
interface ProfileLookup {
  id: number;
  slug: string;
  /** The listing's website as it is now (the document's url). */
  url: string;
  version: string | null;
  /** The stored document as JSON text (null when stale). */
  body: string | null;
  community_rating: ListingProfileRow['community_rating'];
  votes: number;
  follows: number;
  views: number;
  featured_until: string | null;
}

/** A live listing's stored document with its live parts beside it. */
export type ProfileParts = ProfileLookup & { body: string };

/**
 * The profiles' parts of these slugs' live listings of this site, in the slugs' order (undefined
 * where no live listing of this site has the slug). Each listing's slow-changing part is its stored
 * document (listing_documents, migration 0021), built and stored here when a write has marked it
 * stale; the counters, rating and featured window are read live beside it. One statement for any
 * number of slugs: concurrent get_listing misses share it (api/http/batched-read.ts). The slugs are
 * read through a sub-select, not as the bound array itself: a custom plan counts a bound array's
 * elements and a generic plan cannot, so PostgreSQL planned the statement anew on every call
 * (0.4 ms, as long as the read; sql/queries/plan-cache.test.ts).
 */
export async function profileParts(sql: Sql, siteId: number, slugs: readonly string[]): Promise<(ProfileParts | undefined)[]> {
  const iso = sql.unsafe(ISO);
  const rows = await sql<ProfileLookup[]>`
    select l.id::int as id, l.slug, l.url, d.version::text as version, d.body::text as body,
      json_build_object('average', s.rating_avg, 'count', coalesce(s.rating_count, 0)) as community_rating,
      coalesce(s.votes, 0)::int as votes, coalesce(s.follows, 0)::int as follows, coalesce(s.views, 0)::int as views,
      (select to_char(max(f.ends_at) at time zone 'utc', ${iso}) from listing_featured f
       where f.listing_id = l.id and now() >= f.starts_at and now() < f.ends_at) as featured_until
    from listings l
    left join listing_documents d on d.listing_id = l.id
    left join listing_stats s on s.listing_id = l.id
    where l.site_id = ${siteId} and l.slug = any((select ${slugs as string[]}::text[])::text[]) and l.status = 'live'`;
  // Stale documents are built side by side: after a migration marks every one stale, a batch's
  // callers would otherwise wait for each other's builds in turn.
  const stale = rows.filter((row) => row.body === null);
  if (stale.length) await Promise.all(stale.map(async (row) => (row.body = await storeDocument(sql, row.id, row.version))));
  // Text is never changed in place: the same slug twice shares its row.
  const bySlug = new Map(rows.map((row) => [row.slug, row as ProfileParts]));
  return slugs.map((slug) => bySlug.get(slug));
}

/** The members the document holds as null, in its order, that a read fills in. */
const LIVE_MEMBERS = ['profile_url', 'community_rating', 'links', 'votes', 'follows', 'views', 'featured_until'] as const;
type LiveMembers = Pick<ListingProfileRow, (typeof LIVE_MEMBERS)[number]>;

function liveMembers(parts: ProfileParts, siteUrl: string): LiveMembers {
  const profileUrl = `${siteUrl}/listings/${parts.slug}`;
  const api = `${siteUrl}/api/v1/listings/${parts.slug}`;
  return {
    profile_url: profileUrl,
    community_rating: parts.community_rating,
    links: { website: parts.url, profile: profileUrl, badges: `${api}/badges`, alternatives: `${api}/alternatives` },
    votes: parts.votes,
    follows: parts.follows,
    views: parts.views,
    featured_until: parts.featured_until,
  };
}

/**
 * The public profile as JSON text: the stored document's text with its live members written in
 * where it holds them as null. A read sends a listing once and never reads it again, so parsing
 * the document into objects only to stringify them back was a tenth of the edge's CPU on long-tail
 * get_listing. row_to_json writes the document's own members as `"name":null` with no space (the
 * objects inside are built with json_build_object, which writes `"name" : value`), and a string
 * value cannot hold an unescaped quote, so a member found exactly once is the document's own; a
 * document where one is not (a shape this code does not know) is parsed and filled in instead.
 */
export function profileJson(parts: ProfileParts, siteUrl: string): string {
  const doc = parts.body;
  const live = liveMembers(parts, siteUrl);
  let out = '';
  let from = 0;
  for (const name of LIVE_MEMBERS) {
    const token = `"${name}":null`;
    const at = doc.indexOf(token);
    if (at < from || doc.indexOf(token, at + token.length) >= 0) return filledIn(parts.body, live);
    out += `${doc.slice(from, at)}"${name}":${JSON.stringify(live[name])}`;
    from = at + token.length;
  }
  return out + doc.slice(from);
}

/** The same by parsing the document, filling its members in and writing it out again. */
const filledIn = (doc: string, live: LiveMembers): string => JSON.stringify(Object.assign(JSON.parse(doc) as ListingProfileRow, live));

/** The public profile from its parts, as an object. */
export const profileOf = (parts: ProfileParts, siteUrl: string): ListingProfileRow => JSON.parse(profileJson(parts, siteUrl));

/**
 * Builds a listing's document and stores it unless a write changed the listing since `seen` (the
 * version read with the missing body; null when the listing had no document row). A read never
 * waits on a writer: a document row a writer holds is skipped (its writer is changing the version),
 * and one it changed since the reader's look has another version. Exported for its tests.
 */
export async function storeDocument(sql: Sql, id: number, seen: string | null): Promise<string> {
  const [{ body }] = await sql<{ body: string }[]>`
    with fresh as (select listing_document(${id}) as body),
    mine as (
      select listing_id from listing_documents
      where listing_id = ${id} and version = ${seen}::bigint and body is null
      for update skip locked
    ),
    kept as (update listing_documents d set body = (select body from fresh) from mine where d.listing_id = mine.listing_id),
    made as (
      insert into listing_documents (listing_id, body) select ${id}, body from fresh
      where ${seen}::bigint is null on conflict (listing_id) do nothing
    )
    select body::text as body from fresh`;
  return body;
}

/**
 * Builds and stores the documents of this site's live listings that have none (a bulk fill, or a
 * database migrated to 0021), under the same rule as a reader: a document marked stale meanwhile
 * is left for its next reader. Returns how many were stored.
 */
export async function storeMissingDocuments(sql: Sql, siteId: number): Promise<number> {
  const stored = await sql`
    insert into listing_documents as d (listing_id, version, body)
    select l.id, coalesce(x.version, 0), listing_document(l.id) from listings l
    left join listing_documents x on x.listing_id = l.id
    where l.site_id = ${siteId} and l.status = 'live' and x.body is null
    on conflict (listing_id) do update set body = excluded.body
      where d.version = excluded.version and d.body is null`;
  return stored.count;
}

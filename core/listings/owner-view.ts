// What an owner sees of their listings (get_my_listing, list_my_listings): status and why, plan,
// launch week, unlocked sections, every editable value, and what to do next.
import type { Sql } from '../../sql/db.ts';
import { offsetOf } from '../../sql/queries/summaries.ts';
import { missingListing, ownsListing, type ListingOwner } from './own-listing.ts';
import { ownerFindings, type OwnerFindings } from '../recrawl/apply.ts';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

export type NextAction = 'choose_launch' | 'place_badge' | 'keep_badge' | 'none';

export interface OwnerListing {
  id: number;
  slug: string;
  name: string;
  url: string;
  domain: string;
  profile_url: string;
  status: string;
  status_reason: string | null;
  status_detail: string | null;
  status_changed_at: string | null;
  plan: string;
  launch_week: string | null;
  launched_at: string | null;
  free_queued_at: string | null;
  badge_checked_at: string | null;
  badge_seen_at: string | null;
  unlocked_sections: string[];
  categories: string[];
  category_slugs: string[];
  fields: Record<string, unknown>;
  socials: Record<string, string>;
  faqs: { question: string; answer: string }[];
  /** From the last operator re-crawl: new values for fields the owner edited, and facts the site no longer states. */
  proposed_changes: OwnerFindings['proposed_changes'];
  vanished: OwnerFindings['vanished'];
  submitted: boolean;
  created_at: string;
  updated_at: string;
  next_step: { action: NextAction; message: string };
}

/** What the owner must do next, in words, from the status. */
function nextStep(l: Omit<OwnerListing, 'next_step'>): OwnerListing['next_step'] {
  switch (l.status) {
    case 'draft':
      return l.submitted
        ? {
            action: 'choose_launch',
            message:
              l.status_reason === 'badge_missing_at_launch'
                ? 'Our badge was not on your homepage when your launch week began, so the listing lost its week. Place the badge and call choose_free_listing again, or buy a launch.'
                : 'Publish it: call choose_free_listing for a free launch week, or buy a launch (create_checkout).',
          }
        : { action: 'choose_launch', message: 'Publish it with a paid launch (create_checkout); free launches are for listings saved by submit_draft.' };
    case 'awaiting_badge':
      return {
        action: 'place_badge',
        message: `Place our "Listed on" badge (badge.html) on your homepage ${l.url}, visible and linking to ${l.profile_url}. We check it every hour; once found, the listing is scheduled for the week of ${l.launch_week}.`,
      };
    case 'scheduled':
      return {
        action: 'keep_badge',
        message: `Scheduled for the week of ${l.launch_week}. Keep the badge on your homepage: it is checked again before the listing goes live on that Monday.`,
      };
    default:
      return { action: 'none', message: l.status === 'live' ? 'Your listing is live.' : `Status ${l.status}.` };
  }
}

const columns = (sql: Sql, siteUrl: string) => {
  const iso = sql.unsafe(ISO);
  return sql`
    l.id::int as id, l.slug, l.name, l.url, l.domain, ${siteUrl + '/listings/'} || l.slug as profile_url,
    l.status, l.status_reason, l.status_detail, to_char(l.status_changed_at at time zone 'utc', ${iso}) as status_changed_at,
    l.plan, to_char(l.launch_week, 'YYYY-MM-DD') as launch_week, to_char(l.launched_at at time zone 'utc', ${iso}) as launched_at,
    to_char(l.free_queued_at at time zone 'utc', ${iso}) as free_queued_at,
    to_char(l.badge_checked_at at time zone 'utc', ${iso}) as badge_checked_at, to_char(l.badge_seen_at at time zone 'utc', ${iso}) as badge_seen_at,
    l.unlocked_sections,
    coalesce(array(select c.name from listing_categories lc join categories c on c.id = lc.category_id
                   where lc.listing_id = l.id order by lc.is_primary desc, c.name), '{}') as categories,
    coalesce(array(select c.slug from listing_categories lc join categories c on c.id = lc.category_id
                   where lc.listing_id = l.id order by lc.is_primary desc, c.name), '{}') as category_slugs,
    exists (select 1 from drafts d where d.listing_id = l.id and d.submitted_at is not null) as submitted,
    to_char(l.created_at at time zone 'utc', ${iso}) as created_at, to_char(l.updated_at at time zone 'utc', ${iso}) as updated_at`;
};

/** One of the caller's listings as get_my_listing shows it; 404 when it is not theirs. */
export async function ownerListing(owner: Pick<ListingOwner, 'sql' | 'userId' | 'siteId'>, id: number, siteUrl: string): Promise<OwnerListing> {
  const { sql } = owner;
  const [row] = await sql<Omit<OwnerListing, 'next_step'>[]>`
    select ${columns(sql, siteUrl)},
      json_build_object('tagline', l.tagline, 'short_description', l.short_description, 'description', l.description,
        'pricing_model', l.pricing_model, 'pricing_summary', l.pricing_summary, 'country', l.country, 'city', l.city,
        'founded_year', l.founded_year, 'demo_video_url', l.demo_video_url, 'contact_email', l.contact_email,
        'features', l.features, 'usps', l.usps, 'keywords', l.keywords, 'headline', l.headline, 'summary', l.summary,
        'seo_title', l.seo_title, 'seo_description', l.seo_description) as fields,
      (select coalesce(json_object_agg(so.platform, so.url order by so.platform), '{}') from listing_socials so where so.listing_id = l.id) as socials,
      (select coalesce(json_agg(json_build_object('question', q.question, 'answer', q.answer) order by q.position, q.id), '[]')
       from listing_faqs q where q.listing_id = l.id) as faqs
    from listings l where l.id = ${id} and l.site_id = ${owner.siteId} and ${ownsListing(sql, owner.userId)}`;
  if (!row) throw missingListing(id);
  const found = await ownerFindings(sql, id);
  return { ...row, ...found, next_step: nextStep({ ...row, ...found }) };
}

export type OwnerListingSummary = Omit<OwnerListing, 'fields' | 'socials' | 'faqs' | 'proposed_changes' | 'vanished'>;

/** The caller's listings on this site, any status, newest first. */
export async function ownerListings(owner: Pick<ListingOwner, 'sql' | 'userId' | 'siteId'>, page: number, perPage: number, siteUrl: string) {
  const { sql } = owner;
  const rows = await sql<(Omit<OwnerListingSummary, 'next_step'> & { total: number })[]>`
    select ${columns(sql, siteUrl)}, count(*) over ()::int as total
    from listings l where l.site_id = ${owner.siteId} and ${ownsListing(sql, owner.userId)}
    order by l.created_at desc, l.id desc
    limit ${perPage} offset ${offsetOf(page, perPage)}`;
  let total = rows[0]?.total;
  if (total === undefined) {
    [{ total }] = await sql<
      { total: number }[]
    >`select count(*)::int as total from listings l where l.site_id = ${owner.siteId} and ${ownsListing(sql, owner.userId)}`;
  }
  const items = rows.map(({ total: _t, ...r }) => ({
    ...r,
    next_step: nextStep({ ...r, fields: {}, socials: {}, faqs: [], proposed_changes: [], vanished: [] }),
  }));
  return { items, total };
}

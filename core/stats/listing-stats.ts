// get_listing_stats: a listing's figures per UTC day over the last N days, for its owners.
import type { Sql } from '../../sql/db.ts';
import { ownListingId } from '../listings/own-listing.ts';

export interface StatsDay {
  day: string;
  views: number;
  clicks: number;
  badge_impressions: number;
  api_reads: number;
  mcp_reads: number;
  follows: number;
  votes: number;
}

export interface ListingStats {
  listing_id: number;
  days: number;
  from: string;
  to: string;
  totals: Omit<StatsDay, 'day'>;
  series: StatsDay[];
  badge_hosts: { host: string; impressions: number }[];
}

const FIELDS = ['views', 'clicks', 'badge_impressions', 'api_reads', 'mcp_reads', 'follows', 'votes'] as const;

export async function listingStats(owner: { sql: Sql; userId: string; siteId: number }, listingId: number, days: number): Promise<ListingStats> {
  const { sql } = owner;
  const id = await ownListingId(sql, owner, listingId);
  // One row per day, zeros included, so charts need no gap filling.
  const series = await sql<StatsDay[]>`
    with d as (
      select g::date as day from generate_series((now() at time zone 'utc')::date - ${days - 1}::int, (now() at time zone 'utc')::date, interval '1 day') g
    )
    select to_char(d.day, 'YYYY-MM-DD') as day,
      coalesce((select views from listing_views v where v.listing_id = ${id} and v.day = d.day), 0)::int as views,
      coalesce((select clicks from listing_clicks c where c.listing_id = ${id} and c.day = d.day), 0)::int as clicks,
      coalesce((select sum(impressions) from listing_badge_impressions b where b.listing_id = ${id} and b.day = d.day), 0)::int as badge_impressions,
      coalesce((select reads from listing_reads r where r.listing_id = ${id} and r.day = d.day and r.surface = 'api'), 0)::int as api_reads,
      coalesce((select reads from listing_reads r where r.listing_id = ${id} and r.day = d.day and r.surface = 'mcp'), 0)::int as mcp_reads,
      -- The follows and votes that count, as every ranking counts them.
      (select count(*) from counted_follows f where f.listing_id = ${id} and (f.created_at at time zone 'utc')::date = d.day)::int as follows,
      (select count(*) from counted_votes v where v.listing_id = ${id} and (v.created_at at time zone 'utc')::date = d.day)::int as votes
    from d order by d.day`;
  const hosts = await sql<{ host: string; impressions: number }[]>`
    select host, sum(impressions)::int as impressions from listing_badge_impressions
    where listing_id = ${id} and day > (now() at time zone 'utc')::date - ${days}::int
    group by host order by 2 desc, 1 limit 20`;
  const totals = Object.fromEntries(FIELDS.map((f) => [f, series.reduce((n, d) => n + d[f], 0)])) as ListingStats['totals'];
  return { listing_id: id, days, from: series[0].day, to: series[series.length - 1].day, totals, series, badge_hosts: hosts };
}

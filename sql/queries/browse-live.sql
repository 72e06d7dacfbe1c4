-- search_listings without q or filters: a page of the live listings in the sort's order, and how
-- many there are.
--
-- $1 site    $2 sort    $3 per page    $4 offset
-- $5 the site's listing URL: given, the page comes as its summaries (items); else as ids.
--
-- The page walks the sort's own index and stops at the page. Counter sorts show the listings live
-- at the last refresh (about a minute) that are live now, in the counters' and launch times' order
-- as of that refresh: one launched since joins at the next.
with
-- The parameters as a row the statement reads (as search.sql does): a plan that sees a value costs
-- it otherwise than one that cannot, and PostgreSQL would plan the statement anew on every call.
-- The page's bounds too: a bound LIMIT is costed exactly by a custom plan and at a guess by a
-- generic one; read from p, both guess alike, and the walk is the plan either way.
p as (select $1::int as site, $2::text as sort, $3::bigint as per_page, $4::bigint as off, $5::text as profile_base),
-- Exactly, without reading the listings: listing_counts as of the last refresh plus the moves since
-- (listing_count_deltas, written by the listings' triggers in the same transactions; a refresh
-- folds them in atomically). Counting read every index entry: 850k at a million.
n as (
  select ((select coalesce(sum(c.listings), 0) from listing_counts c where c.site_id = (select p.site from p) and c.status = 'live')
          + (select coalesce(sum(d.delta), 0) from listing_count_deltas d where d.site_id = (select p.site from p) and d.status = 'live'))::int as n),
-- What a counter walk keeps: the listings live at the refresh, each changed since probed as it is
-- now (offset 0: one probe each, never a join). Only the ids of the changed listings are hashed: a
-- busy minute changes thousands (each view notes its listing), and probing them all cost 26 ms a
-- page at a million with 6,000.
live as not materialized (
  select s.listing_id as id, s.votes, s.trend_log, s.views, s.follows, s.launched_at from listing_stats s
  where s.site_id = (select p.site from p) and s.live
    and (s.listing_id not in (select d.listing_id from listing_stats_dirty d)
         or exists (select from listings l where l.id = s.listing_id and l.status = 'live' offset 0))),
-- Materialized: the last select reads the page twice, and a subquery pulled up into it would be planned twice.
page as materialized (
  select case
    -- A page past the last listing reads nothing (a deep page walked the whole order to find it empty).
    when (select p.off from p) > 0 and (select n.n from n) <= (select p.off from p) then '{}'::bigint[]
    else case (select p.sort from p)
      -- Each sort walks its own index: listings_live_launched, listing_stats_live_trending,
      -- listing_stats_live_views, listing_stats_live_follows, listing_stats_live_rank.
      when 'newest' then array(
        select l.id from listings l where l.site_id = (select p.site from p) and l.status = 'live'
        order by l.launched_at desc nulls last, l.id desc limit (select p.per_page from p) offset (select p.off from p))
      when 'trending' then array(
        select b.id from live b order by b.trend_log desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      when 'most_viewed' then array(
        select b.id from live b order by b.views desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      when 'most_followed' then array(
        select b.id from live b order by b.follows desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      -- votes, and relevance without q.
      else array(
        select b.id from live b order by b.votes desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
    end
  end as ids)
select (select n.n from n) as total,
       case when (select p.profile_base from p) is null then page.ids end as ids,
       case when (select p.profile_base from p) is not null then (select s.items::text from p, listing_summaries(page.ids, p.profile_base) as s(items)) end as items
from page

-- A list_launches section other than this-week (which is ranking-week.sql): a page of it in the
-- section's order, with what it is ordered by, and how many it holds.
--
-- $1 site    $2 section: today, recent, upcoming, trending, most-voted, most-viewed or most-followed
-- $3 per page    $4 offset
--
-- Rows: total, listing_id, pos (counted across pages), metric_num or metric_text, in order; a page
-- past the end is one row with the total and nulls.
--
-- One branch a section, each kept by a one-time filter on the section so only its own runs; each
-- but today walks its own index and stops at the page:
--   recent          listings_live_launched   (launched_at desc, id desc)
--   upcoming        listings_scheduled_order (launch week, launch time, name, id)
--   trending        listing_stats_trending   (trend_log desc, votes desc, id)
--   most-voted      listing_stats_votes      (votes desc, id)
--   most-viewed     listing_stats_views      (views desc, id)
--   most-followed   listing_stats_follows    (follows desc, id)
-- A day's launches are few (a range of listings_live_launched): today counts and sorts them exactly.
--
-- The counter sections read listing_stats as of the last refresh (a listing added since joins at
-- the next) and check each row they read for liveness with a correlated boolean subquery, a planner
-- fence: it cannot become a join over the whole ranking, and is guessed true for half the rows (a
-- comparison with the subquery would be guessed at 0.5%, making a full read and sort look cheaper),
-- so the generic plan walks the index and stops at the page.
with
-- The parameters as a row the statement reads (see browse-live.sql): a custom plan and the generic
-- one cost alike, so PostgreSQL keeps the generic one.
p as (select $1::int as site, $2::text as section, $3::bigint as per_page, $4::bigint as off,
             date_trunc('day', now() at time zone 'utc') at time zone 'utc' as today),
-- The section's size: upcoming and the counters as of the last refresh (listing_counts), today exactly.
t as materialized (
  select coalesce(case (select p.section from p)
    when 'today' then (
      select count(*) from listings l
      where l.site_id = (select p.site from p) and l.status = 'live'
        and l.launched_at >= (select p.today from p) and l.launched_at < (select p.today + interval '1 day' from p))
    when 'upcoming' then (
      select c.listings from listing_counts c where c.site_id = (select p.site from p) and c.status = 'scheduled')
    else (
      select c.listings from listing_counts c where c.site_id = (select p.site from p) and c.status = 'live')
  end, 0)::int as total),
-- The page's bounds: past the end the limit is 0, so no index is walked in vain.
b as (
  select case when (select t.total from t) > (select p.off from p) then (select p.per_page from p) else 0 end as lim,
         (select p.off from p) as off),
page as (
  (select l.id as listing_id, coalesce(s.votes, 0)::float8 as metric_num, null::text as metric_text,
          row_number() over (order by coalesce(s.votes, 0) desc, l.launched_at asc, l.id)::int as pos
   from listings l left join listing_stats s on s.listing_id = l.id
   where (select p.section from p) = 'today' and l.site_id = (select p.site from p) and l.status = 'live'
     and l.launched_at >= (select p.today from p) and l.launched_at < (select p.today + interval '1 day' from p)
   order by coalesce(s.votes, 0) desc, l.launched_at asc, l.id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select l.id, null::float8, to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          row_number() over (order by l.launched_at desc nulls last, l.id desc)::int
   from listings l
   where (select p.section from p) = 'recent' and l.site_id = (select p.site from p) and l.status = 'live'
   order by l.launched_at desc nulls last, l.id desc
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select l.id, null::float8, to_char(l.launch_week, 'YYYY-MM-DD'),
          row_number() over (order by l.launch_week asc nulls last, l.launched_at asc nulls last, l.name, l.id)::int
   from listings l
   where (select p.section from p) = 'upcoming' and l.site_id = (select p.site from p) and l.status = 'scheduled'
   order by l.launch_week asc nulls last, l.launched_at asc nulls last, l.name, l.id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  -- trend_log orders as trending does at any moment; the score shown is as of the request.
  (select s.listing_id, round(trending_now(s.trend_log)::numeric, 4)::float8, null::text,
          row_number() over (order by s.trend_log desc, s.votes desc, s.listing_id)::int
   from listing_stats s
   where (select p.section from p) = 'trending' and s.site_id = (select p.site from p)
     and (select l.status = 'live' from listings l where l.id = s.listing_id)
   order by s.trend_log desc, s.votes desc, s.listing_id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select s.listing_id, s.votes::float8, null::text, row_number() over (order by s.votes desc, s.listing_id)::int
   from listing_stats s
   where (select p.section from p) = 'most-voted' and s.site_id = (select p.site from p)
     and (select l.status = 'live' from listings l where l.id = s.listing_id)
   order by s.votes desc, s.listing_id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select s.listing_id, s.views::float8, null::text, row_number() over (order by s.views desc, s.listing_id)::int
   from listing_stats s
   where (select p.section from p) = 'most-viewed' and s.site_id = (select p.site from p)
     and (select l.status = 'live' from listings l where l.id = s.listing_id)
   order by s.views desc, s.listing_id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select s.listing_id, s.follows::float8, null::text, row_number() over (order by s.follows desc, s.listing_id)::int
   from listing_stats s
   where (select p.section from p) = 'most-followed' and s.site_id = (select p.site from p)
     and (select l.status = 'live' from listings l where l.id = s.listing_id)
   order by s.follows desc, s.listing_id
   limit (select b.lim from b) offset (select b.off from b)))
select t.total, r.listing_id, r.pos, r.metric_num, r.metric_text
from t left join page r on true
order by r.pos

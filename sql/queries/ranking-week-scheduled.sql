-- A future launch week: the listings scheduled for it, in launch order, then name, then id,
-- unranked; a page of them, and how many there are. get_launch_week and get_launch_integrity read
-- it for a week after the current one.
--
-- $1 site    $2 week (its Monday)    $3 per page    $4 offset
--
-- Rows: total, listing_id, pos, rank, votes, award (the last three null), in order; a page past
-- the end is one row with the total and nulls.
--
-- A week's schedule is small: counted exactly. listings_scheduled_order holds it in this order, so
-- the page walks it and stops.
with
-- The parameters as a row the statement reads (see browse-live.sql).
p as (select $1::int as site, $2::date as week, $3::bigint as per_page, $4::bigint as off),
t as materialized (
  select count(*)::int as total from listings l
  where l.site_id = (select p.site from p) and l.status = 'scheduled' and l.launch_week = (select p.week from p)),
page as (
  select l.id as listing_id, row_number() over (order by l.launched_at asc nulls last, l.name, l.id)::int as pos
  from listings l
  where l.site_id = (select p.site from p) and l.status = 'scheduled' and l.launch_week = (select p.week from p)
  order by l.launched_at asc nulls last, l.name, l.id
  limit case when (select t.total from t) > (select p.off from p) then (select p.per_page from p) else 0 end
  offset (select p.off from p))
select t.total, r.listing_id, r.pos, null::int as rank, null::int as votes, null::int as award
from t left join page r on true
order by r.pos

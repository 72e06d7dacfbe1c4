-- A launch week's ranking: its live launches by the votes cast during the week, then launch time,
-- then id, as of the last refresh, each with its Launch of the Week award if it has one; a page of
-- it, and the week's size. get_launch_week and get_launch_integrity (past and current weeks),
-- list_launches' this-week section and the community-weekly board read it.
--
-- $1 site    $2 week (its Monday; null: the current UTC week)    $3 per page    $4 offset
--
-- Rows: total, listing_id, rank, votes, award, in rank order; a page past the end is one row with
-- the total and nulls.
--
-- listing_stats_week_rank holds each week in this order, so the page walks it and stops. The rank
-- is numbered over the week as of the refresh, and the liveness check applies after it: a launch
-- hidden since is left out at once and the others keep their ranks.
with
-- The parameters as a row the statement reads (see browse-live.sql): a custom plan and the generic
-- one cost alike, so PostgreSQL keeps the generic one.
p as (select $1::int as site, coalesce($2::date, date_trunc('week', now() at time zone 'utc')::date) as week,
             $3::bigint as per_page, $4::bigint as off),
-- The week's size as of the refresh (week_totals), without reading the week.
t as materialized (
  select coalesce((select w.total from week_totals w where w.site_id = (select p.site from p) and w.week = (select p.week from p)), 0)::int as total),
page as (
  select b.listing_id, b.rank, b.votes
  from (select s.listing_id, s.week_votes as votes, s.launched_at,
               row_number() over (order by s.week_votes desc, s.launched_at asc nulls last, s.listing_id)::int as rank
        from listing_stats s
        where s.site_id = (select p.site from p) and s.launch_week = (select p.week from p) and s.live) b
  -- Liveness as a correlated boolean subquery, a planner fence: it cannot become a join over the
  -- whole week, and is guessed true for half the rows (a comparison with the subquery would be
  -- guessed at 0.5%, making a full read and sort look cheaper), so the generic plan walks and stops.
  where (select l.status = 'live' from listings l where l.id = b.listing_id)
  order by b.votes desc, b.launched_at asc nulls last, b.listing_id
  -- Past the end the limit is 0, so the index is not walked in vain.
  limit case when (select t.total from t) > (select p.off from p) then (select p.per_page from p) else 0 end
  offset (select p.off from p))
select t.total, r.listing_id, r.rank, r.votes, a.rank as award
from t
left join page r on true
-- Awards are joined to the page's rows only, not to those skipped by the offset.
left join awards a on a.site_id = (select p.site from p) and a.week = (select p.week from p) and a.listing_id = r.listing_id
order by r.rank

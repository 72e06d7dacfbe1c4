-- A leaderboard other than community-weekly (which is ranking-week.sql): a page of it in rank
-- order with the columns its items show, and how many it ranks.
--
-- $1 site    $2 board: community-all-time, domain-rating, billboard or revenue    $3 per page
-- $4 offset
--
-- Rows: total, listing_id, rank, metric_num and the board's own columns (the others null), in rank
-- order; a page past the end is one row with the total and nulls.
--
-- One branch a board, each kept by a one-time filter on the board so only its own runs; each walks
-- its board's index in rank order and stops at the page:
--   community-all-time   listing_stats_board          (votes desc, id; live listings with votes)
--   domain-rating        listing_domain_rating_board  (rating desc, id; live listings)
--   billboard            mv_board_billboard_rank      (its stored rank)
--   revenue              mv_board_revenue_rank        (its stored rank)
-- Every board is read as of its last refresh. community-all-time and domain-rating are ranked as
-- read (a stored rank would shift for every listing one passes). Each branch checks each row it
-- reads for liveness after ranking, so a listing hidden since the refresh is left out at once and
-- the others keep their ranks: a correlated boolean subquery, a planner fence. It cannot become a
-- join over the whole board, and is guessed true for half the rows (a comparison with the subquery
-- would be guessed at 0.5%, making a full read and sort look cheaper), so the generic plan walks.
with
-- The parameters as a row the statement reads (see browse-live.sql): a custom plan and the generic
-- one cost alike, so PostgreSQL keeps the generic one.
p as (select $1::int as site, $2::text as board, $3::bigint as per_page, $4::bigint as off),
-- The board's size as of its refresh: board_totals for those read from listing_stats, the views'
-- total column for the others.
t as materialized (
  select coalesce(case (select p.board from p)
    when 'billboard' then (select v.total from mv_board_billboard v where v.site_id = (select p.site from p) order by v.rank limit 1)
    when 'revenue' then (select v.total from mv_board_revenue v where v.site_id = (select p.site from p) order by v.rank limit 1)
    else (select c.total from board_totals c where c.site_id = (select p.site from p) and c.board = (select p.board from p))
  end, 0)::int as total),
-- The page's bounds: past the end the limit is 0, so no index is walked in vain.
b as (
  select case when (select t.total from t) > (select p.off from p) then (select p.per_page from p) else 0 end as lim,
         (select p.off from p) as off),
page as (
  (select r.listing_id, r.rank, r.votes::float8 as metric_num,
          null::text as currency, null::int as contributions, null::int as trend, null::text as measured_on,
          null::text as month, null::boolean as verified, null::text as source, null::float8 as usd_cents
   from (select s.listing_id, s.votes, row_number() over (order by s.votes desc, s.listing_id)::int as rank
         from listing_stats s
         where (select p.board from p) = 'community-all-time' and s.site_id = (select p.site from p) and s.live and s.votes > 0) r
   where (select l.status = 'live' from listings l where l.id = r.listing_id)
   order by r.votes desc, r.listing_id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select r.listing_id, r.rank, r.rating::float8, null, null, r.trend, to_char(r.measured_on, 'YYYY-MM-DD'), null, null, null, null
   from (select s.listing_id, s.rating, s.trend, s.measured_on, row_number() over (order by s.rating desc, s.listing_id)::int as rank
         from listing_domain_rating s
         where (select p.board from p) = 'domain-rating' and s.site_id = (select p.site from p) and s.live) r
   where (select l.status = 'live' from listings l where l.id = r.listing_id)
   order by r.rating desc, r.listing_id
   limit (select b.lim from b) offset (select b.off from b))
  union all
  -- Sums can pass 2^31 cents; float8 keeps them exact up to 2^53 and arrives as a JS number.
  (select v.listing_id, v.rank, v.amount_cents::float8, v.currency, v.contributions, null, null, null, null, null, null
   from mv_board_billboard v
   where (select p.board from p) = 'billboard' and v.site_id = (select p.site from p)
     and (select l.status = 'live' from listings l where l.id = v.listing_id)
   order by v.rank
   limit (select b.lim from b) offset (select b.off from b))
  union all
  (select v.listing_id, v.rank, v.mrr_cents::float8, v.currency, null, null, null, to_char(v.month, 'YYYY-MM-DD'), v.verified, v.source,
          v.mrr_usd_cents::float8
   from mv_board_revenue v
   where (select p.board from p) = 'revenue' and v.site_id = (select p.site from p)
     and (select l.status = 'live' from listings l where l.id = v.listing_id)
   order by v.rank
   limit (select b.lim from b) offset (select b.off from b)))
select t.total, r.*
from t left join page r on true
order by r.rank

-- The Launch of the Week awards of the site's live listings, newest week first, then rank; with a
-- slug, only that listing's. A page of them, and how many there are.
--
-- $1 site    $2 a listing's slug, or null for every listing's    $3 per page    $4 offset
--
-- Rows: total, listing_id, rank, votes, week, week_end, pos, in order; a page past the end is one
-- row with the total and nulls.
--
-- Awards are three a week at most, so they are read, counted and sorted exactly.
with
-- The parameters as a row the statement reads (see browse-live.sql).
p as (select $1::int as site, $2::text as slug, $3::bigint as per_page, $4::bigint as off),
m as materialized (
  select a.listing_id, a.rank, a.votes, a.week
  from awards a join listings l on l.id = a.listing_id and l.site_id = a.site_id and l.status = 'live'
  where a.site_id = (select p.site from p) and ((select p.slug from p) is null or l.slug = (select p.slug from p))),
t as materialized (select count(*)::int as total from m),
page as (
  select m.listing_id, m.rank, m.votes, to_char(m.week, 'YYYY-MM-DD') as week, to_char(m.week + 6, 'YYYY-MM-DD') as week_end,
         row_number() over (order by m.week desc, m.rank asc)::int as pos
  from m order by m.week desc, m.rank asc
  limit case when (select t.total from t) > (select p.off from p) then (select p.per_page from p) else 0 end
  offset (select p.off from p))
select t.total, r.*
from t left join page r on true
order by r.pos

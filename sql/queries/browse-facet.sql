-- search_listings without q, by one stage, country or pricing model alone: a page of the live
-- listings with it in the sort's order, and how many there are.
--
-- $1 site    $2 facet ('stage', 'country' or 'pricing')    $3 its value (a country in upper case,
-- a pricing model in lower case)    $4 sort    $5 per page    $6 offset
-- $7 the site's listing URL: given, the page comes as its summaries (items); else as ids.
--
-- Counted without reading the matches. The page is then reached one of two ways. A walk reads the
-- sort's index in order and keeps the listings with the value: about k x N / n entries for n
-- matches among N listings (k = offset + per page). A sort reads the matches by the facet's index,
-- looks up each one's counters and orders them. A value few listings have made the walk read the
-- whole directory (1 s at 100k for none), so the statement walks only when n^2 >= 4 x k x N.
-- Counter sorts show the listings live at the last refresh (see browse-live.sql).
with
-- The parameters as a row the statement reads (see browse-live.sql): no plan sees the value, so a
-- rare one and a broad one share the cached plan.
p as (select $1::int as site, $2::text as facet, $3::text as value, $4::text as sort,
             $5::bigint as per_page, $6::bigint as off, $7::text as profile_base),
-- Exactly: listing_facet_counts as of the last refresh plus the moves since (as listing_counts in
-- browse-live.sql).
n as (
  select ((select coalesce(sum(c.listings), 0) from listing_facet_counts c
           where c.site_id = (select p.site from p) and c.facet = (select p.facet from p) and c.value = (select p.value from p))
          + (select coalesce(sum(d.delta), 0) from listing_facet_count_deltas d
             where d.site_id = (select p.site from p) and d.facet = (select p.facet from p) and d.value = (select p.value from p)))::int as n),
walk as (
  select (select n.n from n)::float8 ^ 2 >= 4 * (select p.off + p.per_page from p)
         * greatest(coalesce((select sum(c.listings) from listing_counts c where c.site_id = (select p.site from p)), 0), 1) as chosen),
-- The matches, read only to be sorted: by the facet's own index (each holds every column read).
m as materialized (
  select l.id, l.launched_at from listings l
  where (select p.facet from p) = 'stage' and l.site_id = (select p.site from p) and l.status = 'live' and l.stage = (select p.value from p)
  union all
  select l.id, l.launched_at from listings l
  where (select p.facet from p) = 'country' and l.site_id = (select p.site from p) and l.status = 'live' and l.country = (select p.value from p)
  union all
  select l.id, l.launched_at from listings l
  where (select p.facet from p) = 'pricing' and l.site_id = (select p.site from p) and l.status = 'live'
    and lower(l.pricing_model) = (select p.value from p)),
-- What a counter walk keeps: each listing it reads probed as it is now, live and with the value
-- (offset 0: one probe each, never a join, which a deep page planned as a hash join of every live
-- listing).
matching as not materialized (
  select s.listing_id as id, s.votes, s.trend_log, s.views, s.follows, s.launched_at from listing_stats s
  where s.site_id = (select p.site from p) and s.live
    and exists (select from listings l where l.id = s.listing_id and l.status = 'live'
                  and case (select p.facet from p) when 'stage' then l.stage when 'country' then l.country else lower(l.pricing_model) end
                      = (select p.value from p)
                offset 0)),
-- Materialized: the last select reads the page twice, and a subquery pulled up into it would be planned twice.
page as materialized (
  select case
    -- A page past the last match reads nothing (a deep page walked the whole order to find it empty).
    when (select p.off from p) > 0 and (select n.n from n) <= (select p.off from p) then '{}'::bigint[]
    when (select walk.chosen from walk) then case (select p.sort from p)
      -- The newest: listings_live_launched holds the values it checks (migration 0056), so the walk
      -- reads no listing, and no index of a value read whole and sorted looks cheaper to a plan that
      -- guesses the page's size. One walk per facet, each compared as its index: a plan then sees
      -- how common a value is (a case over the three, it took any for rare and sorted instead).
      when 'newest' then case (select p.facet from p)
        when 'stage' then array(
          select l.id from listings l
          where l.site_id = (select p.site from p) and l.status = 'live' and l.stage = (select p.value from p)
          order by l.launched_at desc nulls last, l.id desc limit (select p.per_page from p) offset (select p.off from p))
        when 'country' then array(
          select l.id from listings l
          where l.site_id = (select p.site from p) and l.status = 'live' and l.country = (select p.value from p)
          order by l.launched_at desc nulls last, l.id desc limit (select p.per_page from p) offset (select p.off from p))
        else array(
          select l.id from listings l
          where l.site_id = (select p.site from p) and l.status = 'live' and lower(l.pricing_model) = (select p.value from p)
          order by l.launched_at desc nulls last, l.id desc limit (select p.per_page from p) offset (select p.off from p))
      end
      when 'trending' then array(
        select b.id from matching b order by b.trend_log desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      when 'most_viewed' then array(
        select b.id from matching b order by b.views desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      when 'most_followed' then array(
        select b.id from matching b order by b.follows desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      else array(
        select b.id from matching b order by b.votes desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
    end
    when (select p.sort from p) = 'newest' then array(
      select m.id from m order by m.launched_at desc nulls last, m.id desc limit (select p.per_page from p) offset (select p.off from p))
    -- Each match's counters by primary key (offset 0: one probe per match, never a hash of all of
    -- listing_stats); only listings live at the refresh have them.
    else array(
      select m.id from m
      join lateral (
        select case (select p.sort from p) when 'trending' then s.trend_log when 'most_viewed' then s.views::float8
                                            when 'most_followed' then s.follows::float8 else s.votes::float8 end as c,
               s.launched_at
        from listing_stats s where s.listing_id = m.id and s.live offset 0) s on true
      order by s.c desc, s.launched_at desc nulls last, m.id desc limit (select p.per_page from p) offset (select p.off from p))
  end as ids)
select (select n.n from n) as total,
       case when (select p.profile_base from p) is null then page.ids end as ids,
       case when (select p.profile_base from p) is not null then (select s.items::text from p, listing_summaries(page.ids, p.profile_base) as s(items)) end as items
from page

-- search_listings without q, by any other filters (two or more, a domain, upcoming listings): a
-- page of the listings that match in the sort's order, and how many match.
--
-- $1 site             $2 status ('live' or 'scheduled')
-- $3 category slug    $4 stage    $5 country (upper case)    $6 pricing model (lower case)
-- $7 domain, reversed, and $8 its subdomains as a LIKE pattern on the reversed domain
-- $9 sort             $10 per page    $11 offset
-- $12 the site's listing URL: given, the page comes as its summaries (items); else as ids.
-- A filter that is null is not applied.
--
-- The matches (m) are read once and counted. The page is then reached as in browse-facet.sql: a
-- live list of many matches walks the sort's index keeping m's members (n^2 >= 4 x k x N), any
-- other sorts m. Upcoming listings are never walked (not launched, their counters sit together at
-- the order's end), nor a domain's handful.
with
-- The parameters as a row the statement reads (see browse-live.sql).
p as (select $1::int as site, $2::text as status, $3::text as category, $4::text as stage, $5::text as country,
             $6::text as pricing, $7::text as domain, $8::text as subdomains, $9::text as sort,
             $10::bigint as per_page, $11::bigint as off, $12::text as profile_base),
-- The category and its subcategories (two levels); an unknown slug matches nothing.
cx as (select c.id from categories c where c.slug = (select p.category from p)),
cat as materialized (select cx.id from cx union all select ch.id from categories ch where ch.parent_id = (select cx.id from cx)),
m as materialized (
  -- A live category's members unchanged since the last refresh with the other filters, and the
  -- listings changed since that match now (see browse-category.sql) ...
  select cm.listing_id as id, cm.launched_at from category_members cm join listings l on l.id = cm.listing_id
  where (select p.status = 'live' and p.category is not null from p)
    and cm.site_id = (select p.site from p) and cm.category_id = (select cx.id from cx)
    and not (cm.listing_id in (select d.listing_id from listing_stats_dirty d))
    and ((select p.stage from p) is null or l.stage = (select p.stage from p))
    and ((select p.country from p) is null or l.country = (select p.country from p))
    and ((select p.pricing from p) is null or lower(l.pricing_model) = (select p.pricing from p))
    and ((select p.domain from p) is null or reverse(lower(l.domain)) = (select p.domain from p) or reverse(lower(l.domain)) like (select p.subdomains from p))
  union all
  select l.id, l.launched_at from listings l
  where (select p.status = 'live' and p.category is not null from p)
    and l.id in (select d.listing_id from listing_stats_dirty d) and l.site_id = (select p.site from p) and l.status = 'live'
    and (l.primary_category_id in (select cat.id from cat)
         or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select cat.id from cat) offset 0))
    and ((select p.stage from p) is null or l.stage = (select p.stage from p))
    and ((select p.country from p) is null or l.country = (select p.country from p))
    and ((select p.pricing from p) is null or lower(l.pricing_model) = (select p.pricing from p))
    and ((select p.domain from p) is null or reverse(lower(l.domain)) = (select p.domain from p) or reverse(lower(l.domain)) like (select p.subdomains from p))
  union all
  -- ... else, upcoming with no stage, country, pricing model or domain, listings_scheduled_order
  -- from this week on (the status written in for its partial index: bound, a stage's index was read
  -- whole, 70 ms at 100k), by category when one is given (as below) ...
  select l.id, l.launched_at from listings l
  where (select p.status = 'scheduled' and num_nonnulls(p.domain, p.stage, p.country, p.pricing) = 0 from p)
    and l.site_id = (select p.site from p) and l.status = 'scheduled' and l.launch_week >= date_trunc('week', now() at time zone 'utc')::date
    and ((select p.category from p) is null
         or l.id in (select lc.listing_id from listing_categories lc where lc.category_id in (select cat.id from cat)
                     union select x.id from listings x where x.primary_category_id in (select cat.id from cat) and x.status = 'scheduled'))
  union all
  -- ... else the listings of the status found by one filter's index (f), checked for the others.
  select f.id, f.launched_at from (
    -- A domain's (the fewest: its name and the names under it, one range of the reversed names) ...
    select l.id, l.launched_at, l.launch_week, l.stage, l.country, l.pricing_model from listings l
    where (select p.domain is not null from p) and l.site_id = (select p.site from p) and l.status = (select p.status from p)
      and reverse(lower(l.domain)) ~>=~ (select p.domain from p) and reverse(lower(l.domain)) ~<=~ (select p.domain || '/' from p)
      and (reverse(lower(l.domain)) = (select p.domain from p) or reverse(lower(l.domain)) like (select p.subdomains from p))
    union all
    -- ... else a stage's, a country's or a pricing model's (each index holds every column checked) ...
    select l.id, l.launched_at, l.launch_week, l.stage, l.country, l.pricing_model from listings l
    where (select p.domain is null and p.stage is not null from p)
      and l.site_id = (select p.site from p) and l.status = (select p.status from p) and l.stage = (select p.stage from p)
    union all
    select l.id, l.launched_at, l.launch_week, l.stage, l.country, l.pricing_model from listings l
    where (select p.domain is null and p.stage is null and p.country is not null from p)
      and l.site_id = (select p.site from p) and l.status = (select p.status from p) and l.country = (select p.country from p)
    union all
    select l.id, l.launched_at, l.launch_week, l.stage, l.country, l.pricing_model from listings l
    where (select p.domain is null and p.stage is null and p.country is null and p.pricing is not null from p)
      and l.site_id = (select p.site from p) and l.status = (select p.status from p) and lower(l.pricing_model) = (select p.pricing from p)
    ) f
  where not (select p.status = 'live' and p.category is not null from p)
    and (select num_nonnulls(p.domain, p.stage, p.country, p.pricing) > 0 from p)
    -- Upcoming: scheduled for this week or a later one.
    and ((select p.status from p) <> 'scheduled' or f.launch_week >= date_trunc('week', now() at time zone 'utc')::date)
    and ((select p.stage from p) is null or f.stage = (select p.stage from p))
    and ((select p.country from p) is null or f.country = (select p.country from p))
    and ((select p.pricing from p) is null or lower(f.pricing_model) = (select p.pricing from p))
    -- An upcoming category's listings, by tag or primary category, as a semi-join both indexes serve.
    and ((select p.category from p) is null
         or f.id in (select lc.listing_id from listing_categories lc where lc.category_id in (select cat.id from cat)
                     union select l.id from listings l where l.primary_category_id in (select cat.id from cat) and l.status = (select p.status from p)))),
n as (select count(*)::int as n from m),
walk as (
  select (select p.status = 'live' and p.domain is null from p)
     and (select n.n from n)::float8 ^ 2 >= 4 * (select p.off + p.per_page from p)
         * greatest(coalesce((select sum(c.listings) from listing_counts c where c.site_id = (select p.site from p)), 0), 1) as chosen),
-- What a counter walk keeps: m's members (NOT NOT IN: a hashed filter on the walk, where IN would
-- become a join that reads all of m and the order's index).
matching as not materialized (
  select s.listing_id as id, s.votes, s.trend_log, s.views, s.follows, s.launched_at from listing_stats s
  where s.site_id = (select p.site from p) and s.live and not (s.listing_id not in (select m.id from m))),
-- Materialized: the last select reads the page twice, and a subquery pulled up into it would be planned twice.
page as materialized (
  select case
    -- A page past the last match reads nothing (a deep page walked the whole order to find it empty).
    when (select p.off from p) > 0 and (select n.n from n) <= (select p.off from p) then '{}'::bigint[]
    when (select walk.chosen from walk) then case (select p.sort from p)
      when 'newest' then array(
        select l.id from listings l
        where l.site_id = (select p.site from p) and l.status = 'live' and not (l.id not in (select m.id from m))
        order by l.launched_at desc nulls last, l.id desc limit (select p.per_page from p) offset (select p.off from p))
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
    -- Each match's counters by primary key (see browse-facet.sql). A domain's listings without
    -- counters yet count as zero, by their launch now, as they always have; any other list shows
    -- only listings with counters (live at the refresh, for a live list).
    else array(
      select m.id from m
      left join lateral (
        select case (select p.sort from p) when 'trending' then s.trend_log when 'most_viewed' then s.views::float8
                                            when 'most_followed' then s.follows::float8 else s.votes::float8 end as c,
               s.launched_at
        from listing_stats s
        where s.listing_id = m.id and (s.live or (select p.status <> 'live' or p.domain is not null from p))
        offset 0) s on true
      where s.c is not null or (select p.domain is not null from p)
      order by coalesce(s.c, case when (select p.sort from p) = 'trending' then '-infinity'::float8 else 0 end) desc,
               case when (select p.domain is null from p) then s.launched_at else m.launched_at end desc nulls last, m.id desc
      limit (select p.per_page from p) offset (select p.off from p))
  end as ids)
select (select n.n from n) as total,
       case when (select p.profile_base from p) is null then page.ids end as ids,
       case when (select p.profile_base from p) is not null then (select s.items::text from p, listing_summaries(page.ids, p.profile_base) as s(items)) end as items
from page

-- search_listings without q, by a category alone: a page of the live listings in it or its
-- subcategories (by tag or primary category) in the sort's order, and how many there are.
--
-- $1 site    $2 category slug (an unknown one matches nothing)    $3 sort    $4 per page    $5 offset
-- $6 the site's listing URL: given, the page comes as its summaries (items); else as ids.
--
-- Counted as of the last refresh (category_counts, as get_category counts them): counting them now
-- took a probe of every listing changed since, and a busy minute changes thousands (127 ms at a
-- million with 6,000). The page is reached as in browse-facet.sql: a walk of the sort's index
-- keeping the category's listings when they are many (n^2 >= 4 x k x N), else a sort of them.
--
-- Its listings now are its members unchanged since the last refresh (category_members, which the
-- refresh keeps current for every listing it has not been told about) and the listings changed
-- since (listing_stats_dirty) that are in it now: exactly the matches, without the union of tags
-- and primary categories joined to every live listing (20 ms at 100k).
with
-- The parameters as a row the statement reads (see browse-live.sql).
p as (select $1::int as site, $2::text as category, $3::text as sort, $4::bigint as per_page, $5::bigint as off, $6::text as profile_base),
cx as (select c.id from categories c where c.slug = (select p.category from p)),
-- The category and its subcategories (two levels).
cat as materialized (select cx.id from cx union all select ch.id from categories ch where ch.parent_id = (select cx.id from cx)),
n as (
  select coalesce((select k.listings from category_counts k where k.site_id = (select p.site from p) and k.category_id = (select cx.id from cx)), 0) as n),
walk as (
  select (select n.n from n)::float8 ^ 2 >= 4 * (select p.off + p.per_page from p)
         * greatest(coalesce((select sum(c.listings) from listing_counts c where c.site_id = (select p.site from p)), 0), 1) as chosen),
-- The matches, read only to be sorted.
m as materialized (
  select cm.listing_id as id, cm.launched_at from category_members cm
  where cm.site_id = (select p.site from p) and cm.category_id = (select cx.id from cx)
    and not (cm.listing_id in (select d.listing_id from listing_stats_dirty d))
  union all
  select l.id, l.launched_at from listings l
  where l.id in (select d.listing_id from listing_stats_dirty d) and l.site_id = (select p.site from p) and l.status = 'live'
    and (l.primary_category_id in (select cat.id from cat)
         or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select cat.id from cat) offset 0))),
-- What a counter walk keeps of the listings live at the refresh: one unchanged since, when it is
-- among the members (an index probe, no listing read); one changed since, when it is live and in
-- the category now (a probe of it and its tags; offset 0: never a hash of every tag of a top
-- category, 110 ms at a million). Only the ids of the changed listings are hashed (see
-- browse-live.sql).
in_category as not materialized (
  select s.listing_id as id, s.votes, s.trend_log, s.views, s.follows, s.launched_at from listing_stats s
  where s.site_id = (select p.site from p) and s.live
    and case when s.listing_id in (select d.listing_id from listing_stats_dirty d) then exists (
               select from listings l where l.id = s.listing_id and l.status = 'live'
                 and (l.primary_category_id in (select cat.id from cat)
                      or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select cat.id from cat) offset 0))
               offset 0)
             else exists (select from category_members cm where cm.category_id = (select cx.id from cx) and cm.listing_id = s.listing_id offset 0)
        end),
-- Materialized: the last select reads the page twice, and a subquery pulled up into it would be planned twice.
page as materialized (
  select case
    -- A page past the last match reads nothing (a deep page walked the whole order to find it empty).
    when (select p.off from p) > 0 and (select n.n from n) <= (select p.off from p) then '{}'::bigint[]
    when (select walk.chosen from walk) then case (select p.sort from p)
      -- The newest from the listings as they are now, checked as above.
      when 'newest' then array(
        select l.id from listings l
        where l.site_id = (select p.site from p) and l.status = 'live'
          and case when l.id in (select d.listing_id from listing_stats_dirty d)
                   then l.primary_category_id in (select cat.id from cat)
                        or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select cat.id from cat) offset 0)
                   else exists (select from category_members cm where cm.category_id = (select cx.id from cx) and cm.listing_id = l.id offset 0)
              end
        order by l.launched_at desc nulls last, l.id desc limit (select p.per_page from p) offset (select p.off from p))
      when 'trending' then array(
        select b.id from in_category b order by b.trend_log desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      when 'most_viewed' then array(
        select b.id from in_category b order by b.views desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      when 'most_followed' then array(
        select b.id from in_category b order by b.follows desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
      else array(
        select b.id from in_category b order by b.votes desc, b.launched_at desc nulls last, b.id desc
        limit (select p.per_page from p) offset (select p.off from p))
    end
    when (select p.sort from p) = 'newest' then array(
      select m.id from m order by m.launched_at desc nulls last, m.id desc limit (select p.per_page from p) offset (select p.off from p))
    -- Each match's counters by primary key (see browse-facet.sql).
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

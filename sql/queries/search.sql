-- search_listings with q: a page of the listings that match q, and the count of every match.
--
-- $1 q                $2 q as names are compared (lower case, single spaces)   $3 q's word count
-- $4 site             $5 status ('live' or 'scheduled')
-- $6 category slug    $7 stage    $8 country (upper case)    $9 pricing model (lower case)
-- $10 domain, reversed, and $11 its subdomains as a LIKE pattern on the reversed domain
-- $12 sort            $13 per page    $14 offset
-- $15 the site's listing URL: given, the page comes as its summaries (items); else as ids.
-- $16-$20 q's typo plan (typo-plan.ts): its terms, near words and their groups, known lexemes, narrow group.
-- A filter that is null is not applied.
--
-- Matches (m) are read once, counted and ordered from there, so total is exact. They are the
-- listings whose words match q with typos corrected (planned_tsqueries). When none do (total 0), the
-- caller runs search-names.sql with the same parameters: the listings whose name is similar to q
-- as a whole (a run-together or badly misspelt name). A statement of its own, as its plan here was
-- started and ended on every search though it ran on almost none.
with
-- The parameters as a row the statement reads, not as bound values: a plan that sees a value (a
-- filter that is null, the sort) costs less than one that cannot, so PostgreSQL kept planning the
-- statement anew on every call (as much time again as it runs); read from p, every plan costs the
-- same and the cached one is kept (materialized: inlined, a plan would see the values). p and tq
-- are joined where read: read as (select p.x from p), each read was an InitPlan of its own, some
-- 55 of them started and ended on every call.
p as materialized (
  select $1::text as q, $2::text as q_name, $3::int as words, $4::int as site, $5::text as status, $6::text as category,
         $7::text as stage, $8::text as country, $9::text as pricing, $10::text as domain, $11::text as subdomains,
         $12::text as sort, $15::text as profile_base, $13::bigint + $14::bigint as k, $13::bigint as per_page, $14::bigint as off),
-- The category and its subcategories (a tree of two levels, a few dozen rows: read whole, fewer
-- nodes to start than three index lookups).
cat as materialized (
  select c.id from p, categories c left join categories parent on parent.id = c.parent_id where p.category in (c.slug, parent.slug)),
-- The typo-tolerant tsqueries, built from the edge's plan (sql/queries/typo-plan.ts).
tq as materialized (select t.ranked, t.matched, t.narrow
                    from planned_tsqueries($16::text[], $17::text[], $18::int[], $19::text[], $20::int) t),
-- Each match's tiers for relevance: name 3 = the name is q, 2 = it starts with q, 1 = it is q with
-- its typos corrected (as many words, each matched by q's alternatives, checked only for names about
-- as long as q so a broad word's thousands of matches parse no name), 0 = none; then score, ts_rank
-- over search_rank (the name, tagline and keywords; the description vector is never read). Both 0
-- for the other sorts.
m as materialized (
  select l.id, l.launched_at,
         case when p.sort = 'relevance' then ts_rank(l.search_rank, tq.ranked) else 0 end::real as score,
         case when p.sort <> 'relevance' then 0
              when starts_with(lower(l.name), p.q_name) then case when lower(l.name) = p.q_name then 3 else 2 end
              when abs(length(l.name) - length(p.q_name)) <= 2 and length(to_tsvector('simple', l.name)) = p.words
                   and to_tsvector('simple', l.name) @@ tq.ranked then 1
              else 0 end as name
  from p, tq, listings l
  -- Planner fence: site and status compared as expressions no index holds. Nearly every listing is
  -- of the site and live, which a cached generic plan cannot see: it ANDed the GIN index's exact
  -- bitmap with a (site_id, status) bitmap of every live listing, for nothing (100k listings, warm:
  -- "notoin" 1.6-7.8 ms with the fence, 38-41 ms without; "gadget" 0.9-1.0 against 1.3-17 ms).
  where l.site_id + 0 = p.site and l.status || '' = p.status
    -- The GIN index answers the tsquery exactly. When one term's group is far rarer than another's
    -- (narrow), the index finds that group alone and each of its few listings is checked against
    -- the whole query (ts_match_vq: @@ the index cannot take over).
    and l.search @@ coalesce(tq.narrow, tq.matched)
    and (tq.narrow is null or ts_match_vq(l.search, tq.matched))
    -- Upcoming: scheduled for this week or a later one.
    and (p.status <> 'scheduled' or l.launch_week >= date_trunc('week', now() at time zone 'utc')::date)
    -- The category and its subcategories, by primary category or tag, probed per match (offset 0:
    -- never a hash of every tag of a top category, 110 ms at a million listings for a handful of matches).
    and (p.category is null or l.primary_category_id in (select cat.id from cat)
         or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select cat.id from cat) offset 0))
    and (p.stage is null or l.stage = p.stage)
    and (p.country is null or l.country = p.country)
    and (p.pricing is null or lower(l.pricing_model) = p.pricing)
    and (p.domain is null or reverse(lower(l.domain)) = p.domain or reverse(lower(l.domain)) like p.subdomains)),
n as (select count(*) as n from m),
-- Relevance among many live matches: the tie at the page's end can be most of them (every listing
-- whose tagline has a broad word once scores the same), and looking up each one's votes was a
-- third of such a search. So b is the k-th best (name, score), a the matches above it, t those tied
-- with it; t's best by votes come from walking listing_stats_live_rank (the votes order) keeping t's
-- members, when that reads fewer entries than t has: about k x N / |t| of the N live listings,
-- against |t| lookups. Listings changed since the last refresh (listing_stats_dirty) are looked up
-- instead; every other listing's row in listing_stats is as the refresh left it and current.
b as (select m.name, m.score from m order by m.name desc, m.score desc offset (select p.k from p) - 1 limit 1),
a as materialized (select m.* from m where not exists (select from b) or (m.name, m.score) > (select b.name, b.score from b)),
t as materialized (select m.* from m join b on m.name = b.name and m.score = b.score),
-- Materialized: inlined, page.ids would be its array(...) sub-select, and listing_summaries() called
-- with a sub-select is planned as a function scan instead of inlined (0.58 against 0.19 ms for 12).
page as materialized (
  select n.n as total, p.profile_base,
         case when not (p.sort = 'relevance' and p.status = 'live' and n.n >= 500
                        -- At least one live listing counted, so an empty tie never walks (before a first refresh).
                        and (select count(*) from t)::float8 ^ 2 * 10 >= p.k::float8
                            * greatest(coalesce((select c.listings from listing_counts c where c.site_id = p.site and c.status = 'live'), 0), 1))
         then array(
    -- The best k by name and score and all tied with the k-th (for the other sorts: every match),
    -- then the sort's counter (looked up by primary key for just these: a handful of probes where a
    -- join would hash all of listing_stats; none for newest), newest first, id.
    select best.id from (select * from m order by m.name desc, m.score desc fetch first p.k rows with ties) best
    order by best.name desc, best.score desc,
             case when p.sort = 'newest' then null else coalesce((
               select case p.sort when 'trending' then s.trend_log when 'most_viewed' then s.views::float8
                                  when 'most_followed' then s.follows::float8 else s.votes::float8 end
               from listing_stats s where s.listing_id = best.id), case when p.sort = 'trending' then '-infinity'::float8 else 0 end) end desc nulls last,
             best.launched_at desc nulls last, best.id desc
    limit p.per_page offset p.off)
  else array(
    select x.id from (
      select a.id, a.name, a.score, coalesce((select s.votes from listing_stats s where s.listing_id = a.id), 0) as votes, a.launched_at from a
      union all
      select t.id, t.name, t.score, coalesce((select s.votes from listing_stats s where s.listing_id = t.id), 0), t.launched_at from t
      where t.id in (select d.listing_id from listing_stats_dirty d)
      union all
      select w.id, b.name, b.score, w.votes, w.launched_at from b, (
        select s.listing_id as id, s.votes, s.launched_at from listing_stats s
        where s.site_id = p.site and s.live
          -- NOT NOT IN: a hashed filter on the walk, which IN would turn into a join.
          and not (s.listing_id not in (select t.id from t))
          and s.listing_id not in (select d.listing_id from listing_stats_dirty d)
        order by s.votes desc, s.launched_at desc nulls last, s.listing_id desc
        limit p.k - (select count(*) from a)) w
    ) x order by x.name desc, x.score desc, x.votes desc, x.launched_at desc nulls last, x.id desc
    limit p.per_page offset p.off)
  end as ids
  from p, n)
select page.total::int as total,
       -- The vocabulary's generation now: when the plan's copy was read at another, the edge reads it again.
       (select last_value::text from search_vocabulary_generation) as generation,
       case when page.profile_base is null then page.ids end as ids,
       case when page.profile_base is not null then (select s.items::text from listing_summaries(page.ids, page.profile_base) as s(items)) end as items
from page

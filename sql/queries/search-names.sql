-- search_listings with q, when no listing's words match q (search.sql found none): a page of the
-- listings whose name is similar to q as a whole (a run-together or badly misspelt name), and the
-- count of every such match. Its own statement, run only then: inside search.sql its plan was
-- started and ended on every search for nothing.
--
-- The parameters are search.sql's, in its order:
-- $1 q                $2 q as names are compared (lower case, single spaces)   $3 q's word count
-- $4 site             $5 status ('live' or 'scheduled')
-- $6 category slug    $7 stage    $8 country (upper case)    $9 pricing model (lower case)
-- $10 domain, reversed, and $11 its subdomains as a LIKE pattern on the reversed domain
-- $12 sort            $13 per page    $14 offset
-- $15 the site's listing URL: given, the page comes as its summaries (items); else as ids.
-- A filter that is null is not applied. $1 and $3 are bound but not used here.
--
-- Matches (m) are read once, counted and ordered from there, so total is exact. Unlike search.sql
-- there is no walk of large ties: the page is always the best k and their ties ordered with their
-- counters looked up, the order the walk reproduces; names similar to q are rarely so many that
-- the walk would pay, and its plan would be started on every call.
with
-- The parameters as a row the statement reads, not as bound values, so that the cached generic
-- plan is kept; joined where read (see search.sql).
p as materialized (
  select $1::text as q, $2::text as q_name, $3::int as words, $4::int as site, $5::text as status, $6::text as category,
         $7::text as stage, $8::text as country, $9::text as pricing, $10::text as domain, $11::text as subdomains,
         $12::text as sort, $15::text as profile_base, $13::bigint + $14::bigint as k, $13::bigint as per_page, $14::bigint as off),
-- The category and its subcategories (a tree of two levels, a few dozen rows: read whole, fewer
-- nodes to start than three index lookups).
cat as materialized (
  select c.id from p, categories c left join categories parent on parent.id = c.parent_id where p.category in (c.slug, parent.slug)),
-- Each match's tiers for relevance: name 3 = the name is q, 2 = it starts with q, 0 = neither; then
-- score, the name's similarity to q. Both 0 for the other sorts.
m as materialized (
  select l.id, l.launched_at,
         case when p.sort = 'relevance' then similarity(lower(l.name), p.q_name) else 0 end::real as score,
         case when p.sort <> 'relevance' then 0
              when starts_with(lower(l.name), p.q_name) then case when lower(l.name) = p.q_name then 3 else 2 end
              else 0 end as name
  from p, listings l
  -- The names' trigram index finds the matches; site and status behind the fence as in search.sql.
  where l.site_id + 0 = p.site and l.status || '' = p.status
    and lower(l.name) % p.q_name
    and (p.status <> 'scheduled' or l.launch_week >= date_trunc('week', now() at time zone 'utc')::date)
    and (p.category is null or l.primary_category_id in (select cat.id from cat)
         or exists (select from listing_categories lc where lc.listing_id = l.id and lc.category_id in (select cat.id from cat) offset 0))
    and (p.stage is null or l.stage = p.stage)
    and (p.country is null or l.country = p.country)
    and (p.pricing is null or lower(l.pricing_model) = p.pricing)
    and (p.domain is null or reverse(lower(l.domain)) = p.domain or reverse(lower(l.domain)) like p.subdomains)),
-- Materialized, so that listing_summaries() is inlined (see search.sql).
page as materialized (
  select (select count(*) from m) as total, p.profile_base, array(
    -- The best k by name and score and all tied with the k-th (for the other sorts: every match),
    -- then the sort's counter (looked up by primary key for just these), newest first, id.
    select best.id from (select * from m order by m.name desc, m.score desc fetch first p.k rows with ties) best
    order by best.name desc, best.score desc,
             case when p.sort = 'newest' then null else coalesce((
               select case p.sort when 'trending' then s.trend_log when 'most_viewed' then s.views::float8
                                  when 'most_followed' then s.follows::float8 else s.votes::float8 end
               from listing_stats s where s.listing_id = best.id), case when p.sort = 'trending' then '-infinity'::float8 else 0 end) end desc nulls last,
             best.launched_at desc nulls last, best.id desc
    limit p.per_page offset p.off) as ids
  from p)
select page.total::int as total,
       case when page.profile_base is null then page.ids end as ids,
       case when page.profile_base is not null then (select s.items::text from listing_summaries(page.ids, page.profile_base) as s(items)) end as items
from page

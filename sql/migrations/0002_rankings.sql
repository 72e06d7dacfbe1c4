-- Rankings and search helpers: materialized views refreshed by the worker (and after seeding).
create extension if not exists fuzzystrmatch;

-- Per-listing counters. trending = votes decayed with a 3-day half-life, as of the refresh.
create materialized view mv_listing_stats as
select l.id as listing_id,
       l.site_id,
       coalesce(v.votes, 0)::int as votes,
       coalesce(v.trending, 0)::float8 as trending,
       coalesce(f.follows, 0)::int as follows,
       coalesce(w.views, 0)::bigint as views,
       r.rating_avg,
       coalesce(r.rating_count, 0)::int as rating_count
from listings l
left join (select listing_id, count(*) as votes,
                  -- clamped: exp() of a vote years old would underflow and fail the refresh
                  sum(exp(greatest(-ln(2) * extract(epoch from (now() - created_at)) / (3 * 86400), -700))) as trending
           from votes group by listing_id) v on v.listing_id = l.id
left join (select listing_id, count(*) as follows from follows group by listing_id) f on f.listing_id = l.id
left join (select listing_id, sum(views) as views from listing_views group by listing_id) w on w.listing_id = l.id
left join (select rv.listing_id, round(avg(rv.rating)::numeric, 2)::float8 as rating_avg, count(*) as rating_count
           from reviews rv join listings ol on ol.id = rv.listing_id
           where not rv.flagged and rv.user_id is distinct from ol.owner_user_id
           group by rv.listing_id) r on r.listing_id = l.id;
create unique index mv_listing_stats_pk on mv_listing_stats (listing_id);
create index mv_listing_stats_votes on mv_listing_stats (site_id, votes desc, listing_id);
-- Each counter index matches a list_launches order (trending breaks ties by votes), so a page stops early.
create index mv_listing_stats_trending on mv_listing_stats (site_id, trending desc, votes desc, listing_id);
create index mv_listing_stats_views on mv_listing_stats (site_id, views desc, listing_id);
create index mv_listing_stats_follows on mv_listing_stats (site_id, follows desc, listing_id);
comment on materialized view mv_listing_stats is 'Votes, trending score, follows, views and the genuine community rating per listing.';

-- How many listings each site has in each status, so paged lists over all live (or scheduled)
-- listings read their total instead of counting tens of thousands of rows per request.
create materialized view mv_listing_counts as
select site_id, status, count(*)::int as listings from listings group by site_id, status;
create unique index mv_listing_counts_pk on mv_listing_counts (site_id, status);
comment on materialized view mv_listing_counts is 'Listings per site and status as of the last refresh: totals of paged lists.';

-- Paged lists read straight from listings in these orders: live by launch (newest first) and
-- scheduled by launch week, then launch time and name. Both cover the columns read (index-only).
create index listings_live_launched on listings (site_id, launched_at desc nulls last, id desc) where status = 'live';
create index listings_scheduled_order on listings (site_id, launch_week, launched_at, name, id) where status = 'scheduled';

-- Launch rankings: live listings of each launch week ranked by votes cast during that week.
create materialized view mv_weekly_ranking as
select l.site_id, l.launch_week as week, l.id as listing_id,
       coalesce(v.votes, 0)::int as votes,
       row_number() over (partition by l.site_id, l.launch_week
                          order by coalesce(v.votes, 0) desc, l.launched_at asc nulls last, l.id asc)::int as rank,
       -- Every ranking view carries its size, so a page reads its total instead of counting.
       count(*) over (partition by l.site_id, l.launch_week)::int as total
from listings l
left join (select vo.listing_id, count(*) as votes
           from votes vo join listings li on li.id = vo.listing_id
           where vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
             and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')
           group by vo.listing_id) v on v.listing_id = l.id
where l.status = 'live' and l.launch_week is not null;
create unique index mv_weekly_ranking_pk on mv_weekly_ranking (listing_id);
create index mv_weekly_ranking_week on mv_weekly_ranking (site_id, week, rank);
comment on materialized view mv_weekly_ranking is 'Per launch week, live launches ranked by the votes cast during that week; awards follow it.';

create materialized view mv_board_all_time as
select s.site_id, s.listing_id, s.votes,
       row_number() over (partition by s.site_id order by s.votes desc, s.listing_id)::int as rank,
       count(*) over (partition by s.site_id)::int as total
from mv_listing_stats s join listings l on l.id = s.listing_id
where l.status = 'live' and s.votes > 0;
create unique index mv_board_all_time_pk on mv_board_all_time (listing_id);
create index mv_board_all_time_rank on mv_board_all_time (site_id, rank);
comment on materialized view mv_board_all_time is 'All-time community leaderboard.';

create materialized view mv_board_billboard as
select l.site_id, l.id as listing_id, sum(b.amount_cents)::bigint as amount_cents, min(b.currency) as currency,
       count(*)::int as contributions,
       row_number() over (partition by l.site_id order by sum(b.amount_cents) desc, min(b.created_at), l.id)::int as rank,
       count(*) over (partition by l.site_id)::int as total
from billboard_contributions b join listings l on l.id = b.listing_id
where l.status = 'live'
group by l.site_id, l.id;
create unique index mv_board_billboard_pk on mv_board_billboard (listing_id);
create index mv_board_billboard_rank on mv_board_billboard (site_id, rank);
comment on materialized view mv_board_billboard is 'Paid billboard: ranked by money contributed; always presented as paid.';

create materialized view mv_board_domain_rating as
with latest as (
  select distinct on (company_id) company_id, rating, measured_on
  from domain_ratings order by company_id, measured_on desc
), earlier as (
  select distinct on (d.company_id) d.company_id, d.rating
  from domain_ratings d join latest la on la.company_id = d.company_id
  where d.measured_on <= la.measured_on - 28
  order by d.company_id, d.measured_on desc
)
select l.site_id, l.id as listing_id, la.rating, la.measured_on,
       (la.rating - e.rating)::int as trend,
       row_number() over (partition by l.site_id order by la.rating desc, l.id)::int as rank,
       count(*) over (partition by l.site_id)::int as total
from listings l join latest la on la.company_id = l.company_id
left join earlier e on e.company_id = l.company_id
where l.status = 'live';
create unique index mv_board_domain_rating_pk on mv_board_domain_rating (listing_id);
create index mv_board_domain_rating_rank on mv_board_domain_rating (site_id, rank);
comment on materialized view mv_board_domain_rating is 'Latest Domain Rating per live listing and its change over about four weeks.';

create materialized view mv_board_revenue as
with latest as (
  select distinct on (company_id) company_id, month, mrr_cents, currency, verified
  from revenue_figures order by company_id, month desc
)
select l.site_id, l.id as listing_id, la.mrr_cents, la.currency, la.month, la.verified,
       row_number() over (partition by l.site_id order by la.mrr_cents desc, l.id)::int as rank,
       count(*) over (partition by l.site_id)::int as total
from listings l join latest la on la.company_id = l.company_id
where l.status = 'live';
create unique index mv_board_revenue_pk on mv_board_revenue (listing_id);
create index mv_board_revenue_rank on mv_board_revenue (site_id, rank);
comment on materialized view mv_board_revenue is 'Latest reported monthly recurring revenue per live listing.';

-- Words of listing text for typo correction of search terms.
create materialized view mv_search_words as
select word from ts_stat($q$
  select to_tsvector('simple', coalesce(name, '') || ' ' || coalesce(tagline, '') || ' ' ||
                     array_to_string(keywords, ' ') || ' ' || coalesce(left(description, 2000), ''))
  from public.listings where status in ('live', 'scheduled')
$q$) where length(word) between 3 and 40 and word !~ '^[0-9]+$';
create unique index mv_search_words_pk on mv_search_words (word);
create index mv_search_words_trgm on mv_search_words using gist (word gist_trgm_ops);
comment on materialized view mv_search_words is 'Distinct words of listing text, used to correct typos in search terms.';

-- A tsquery that tolerates typos: each term matches itself, its prefix, and the nearest known words.
create function typo_tsquery(q text) returns tsquery language plpgsql stable parallel safe as $$
declare
  terms text[];
  term text;
  alt tsquery;
  result tsquery;
  w text;
  has_content boolean;
begin
  select array_agg(t order by ord) into terms from (
    select t, min(ord) as ord
    from regexp_split_to_table(lower(unaccent(q)), '[^[:alnum:]]+') with ordinality as x(t, ord)
    where t <> '' group by t order by min(ord) limit 8) s;
  if terms is null then return null; end if;
  -- English stop words match nothing in the stemmed columns: drop them unless nothing else is left.
  has_content := exists (select 1 from unnest(terms) t where numnode(plainto_tsquery('english', t)) > 0);
  foreach term in array terms loop
    continue when has_content and numnode(plainto_tsquery('english', term)) = 0;
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
    if length(term) >= 4 then
      for w in
        -- The 6 nearest known words by trigram distance (a kNN walk of the GiST index); ties by
        -- spelling, so the pick does not depend on the index's page order.
        select c.word from (select word from mv_search_words order by word <-> term, word limit 6) c
        where c.word <> term and levenshtein(c.word, term) <= case when length(term) >= 7 then 2 else 1 end
        union
        -- An adjacent swap ("notoin" -> "notion") is one typo, though Levenshtein counts two.
        select s.word from mv_search_words s
        where s.word <> term and s.word in (
          select overlay(term placing substr(term, i + 1, 1) || substr(term, i, 1) from i for 2)
          from generate_series(1, length(term) - 1) i)
      loop
        alt := alt || to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
      end loop;
    end if;
    result := case when result is null then alt else result && alt end;
  end loop;
  return result;
end $$;
comment on function typo_tsquery is 'Builds a tsquery from free text where each term may also match close spellings from mv_search_words.';

create function refresh_directory_views() returns void language plpgsql as $$
begin
  refresh materialized view concurrently mv_listing_stats;
  refresh materialized view concurrently mv_listing_counts;
  refresh materialized view concurrently mv_weekly_ranking;
  refresh materialized view concurrently mv_board_all_time;
  refresh materialized view concurrently mv_board_billboard;
  refresh materialized view concurrently mv_board_domain_rating;
  refresh materialized view concurrently mv_board_revenue;
  refresh materialized view concurrently mv_search_words;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $$;
comment on function refresh_directory_views is 'Refreshes every ranking view and tells edges to drop cached reads.';

-- Awards follow the weekly ranking: the top 3 with at least one vote, once the week is over.
create function award_week(p_site int, p_week date) returns int language sql as $$
  with winners as (
    insert into awards (site_id, listing_id, week, rank, votes)
    select r.site_id, r.listing_id, r.week, r.rank, r.votes
    from mv_weekly_ranking r
    where r.site_id = p_site and r.week = p_week and r.rank <= 3 and r.votes > 0
      and p_week + 7 <= (now() at time zone 'utc')::date
    on conflict (site_id, week, rank) do nothing
    returning 1)
  select count(*)::int from winners;
$$;
comment on function award_week is 'Grants Launch of the Week #1-#3 for a finished week from mv_weekly_ranking; idempotent.';

-- Cached public reads are keyed by this generation; anything that changes what they show bumps it.
create sequence cache_generation;
comment on sequence cache_generation is 'Generation of cached public reads; bumped and announced on NOTIFY directory_changed.';
create function directory_changed() returns bigint language plpgsql as $$
declare g bigint := nextval('cache_generation');
begin
  perform pg_notify('directory_changed', g::text);
  return g;
end $$;
comment on function directory_changed is 'Call in any transaction that changes what public reads show.';

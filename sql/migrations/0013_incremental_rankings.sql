-- Incremental rankings. Recomputing every counter from every vote took 92 s at a million listings
-- and 8 million votes, once a minute. Now triggers note what changed (which listings, which launch
-- weeks, which views' sources) and refresh_directory_views() recomputes only that:
-- - listing_stats: one row of counters per listing, recomputed for the listings noted since the
--   last refresh;
-- - weekly_ranking: the ranks of the launch weeks whose listings changed;
-- - the all-time and Domain Rating boards: read in rank order from an index (no stored rank to
--   shift as one listing passes others);
-- - search_words (typo correction): counts of listings per word, moved by the words a listing
--   gains or loses;
-- - the remaining views (small, or cheap to count): refreshed only when a source table changed.

-- Trending is votes decayed with a 3-day half-life. A sum of exp(k * (t - t0)) over votes never
-- changes as time passes (every listing's sum scales by the same factor), so it is stored as its
-- log (which cannot overflow) and the order by it is the order by trending at any moment.
create function trend_x(t timestamptz) returns float8 language sql stable parallel safe as $$
  select (extract(epoch from t)::float8 - 1735689600) * ln(2) / 259200
$$;
comment on function trend_x is 'A vote''s weight on the log scale of trend_log: ln(2) per 3 days since 2025-01-01.';

create function trending_now(trend_log float8) returns float8 language sql stable parallel safe as $$
  -- Clamped: exp() of a vote years old would underflow and fail.
  select exp(greatest(trend_log - trend_x(now()), -700))
$$;
comment on function trending_now is 'The trending score as of now: the sum of 2^(-age / 3 days) over the listing''s votes.';

create table listing_stats (
  listing_id bigint primary key references listings(id) on delete cascade,
  site_id int not null,
  -- The listing as of the refresh, for the indexes that rank it.
  live boolean not null,
  launch_week date,
  launched_at timestamptz,
  votes int not null,
  -- Votes cast during the listing's launch week: what the weekly ranking and awards count.
  week_votes int not null,
  -- ln(sum(exp(trend_x(vote time)))); -infinity without votes.
  trend_log float8 not null,
  follows int not null,
  views bigint not null,
  rating_avg float8,
  rating_count int not null
);
create index listing_stats_votes on listing_stats (site_id, votes desc, listing_id);
-- Each counter index matches a list_launches order (trending breaks ties by votes), so a page stops early.
create index listing_stats_trending on listing_stats (site_id, trend_log desc, votes desc, listing_id);
create index listing_stats_views on listing_stats (site_id, views desc, listing_id);
create index listing_stats_follows on listing_stats (site_id, follows desc, listing_id);
-- The all-time board in rank order, and its size counted from the index alone.
create index listing_stats_board on listing_stats (site_id, votes desc, listing_id) where live and votes > 0;
create index listing_stats_week on listing_stats (site_id, launch_week) where live;
comment on table listing_stats is 'Votes, trending, follows, views and the genuine community rating per listing, as of the last refresh.';

create table weekly_ranking (
  listing_id bigint primary key references listings(id) on delete cascade,
  site_id int not null,
  week date not null,
  votes int not null,
  rank int not null,
  -- Every ranking carries its size, so a page reads its total instead of counting.
  total int not null
);
create index weekly_ranking_week on weekly_ranking (site_id, week, rank);
comment on table weekly_ranking is 'Per launch week, live launches ranked by the votes cast during that week; awards follow it.';

create table board_totals (
  site_id int not null,
  board text not null,
  total int not null,
  primary key (site_id, board)
);
create table listing_domain_rating (
  listing_id bigint primary key references listings(id) on delete cascade,
  site_id int not null,
  live boolean not null,
  rating int not null,
  measured_on date not null,
  -- Change since the latest measurement at least 28 days before this one.
  trend int
);
create index listing_domain_rating_board on listing_domain_rating (site_id, rating desc, listing_id) where live;
comment on table listing_domain_rating is 'Latest Domain Rating of each listing''s company and its change over about four weeks, as of the last refresh.';

-- Distinct words of listing text for typo correction, with how many listings use each.
create table search_words (
  word text primary key,
  listings int not null check (listings > 0)
);
create index search_words_trgm on search_words using gist (word gist_trgm_ops);
comment on table search_words is 'Distinct words of live and scheduled listings'' text, used to correct typos in search terms.';
create table search_word_deltas (word text not null, delta int not null);
comment on table search_word_deltas is 'Words listings gained (+1) or lost (-1) since the last refresh.';

create function search_words_of(p_name text, p_tagline text, p_keywords text[], p_description text)
returns setof text language sql immutable parallel safe as $$
  select w from unnest(tsvector_to_array(to_tsvector('simple',
    coalesce(p_name, '') || ' ' || coalesce(p_tagline, '') || ' ' || words_of(p_keywords) || ' ' || coalesce(left(p_description, 2000), '')))) w
  where length(w) between 3 and 40 and w !~ '^[0-9]+$'
$$;
comment on function search_words_of is 'The words of a listing''s text that typo correction knows.';

comment on table board_totals is 'Sizes of the boards read straight from listing_stats, as of the last refresh.';

-- What changed since the last refresh. No keys: a vote's trigger appends and never waits on a
-- refresh that is taking the rows away.
create table listing_stats_dirty (listing_id bigint not null);
comment on table listing_stats_dirty is 'Listings whose counters or ranking inputs changed since the last refresh (repeats allowed).';
create table ranking_weeks_dirty (site_id int not null, week date not null);
comment on table ranking_weeks_dirty is 'Launch weeks to re-rank at the next refresh (repeats allowed).';
create table views_dirty (view_name text not null);
comment on table views_dirty is 'Materialized views whose sources changed since the last refresh (repeats allowed).';

-- Votes, follows, views and reviews note their listings.
create function note_listing_activity() returns trigger language plpgsql as $$
begin
  if tg_op <> 'DELETE' then insert into listing_stats_dirty select distinct listing_id from new_rows; end if;
  if tg_op <> 'INSERT' then insert into listing_stats_dirty select distinct listing_id from old_rows; end if;
  return null;
end $$;
comment on function note_listing_activity is 'Trigger: notes the listings whose votes, follows, views or reviews a statement changed.';

do $$
declare t text;
begin
  -- Transition tables allow one event per trigger: three triggers per table.
  foreach t in array array['votes', 'follows', 'listing_views', 'reviews'] loop
    execute format('create trigger %I after insert on %I referencing new table as new_rows for each statement execute function note_listing_activity()', t || '_noted_ins', t);
    execute format('create trigger %I after update on %I referencing old table as old_rows new table as new_rows for each statement execute function note_listing_activity()', t || '_noted_upd', t);
    execute format('create trigger %I after delete on %I referencing old table as old_rows for each statement execute function note_listing_activity()', t || '_noted_del', t);
  end loop;
end $$;

-- A listing's own row: its counters' inputs (status, week, launch time, owner), the weeks it
-- leaves or joins, and the views built from listings.
create function note_listing_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into listing_stats_dirty select id from new_rows;
    insert into ranking_weeks_dirty select distinct site_id, launch_week from new_rows where launch_week is not null and status = 'live';
    insert into search_word_deltas
      select w, count(*) from new_rows n cross join search_words_of(n.name, n.tagline, n.keywords, n.description) w
      where n.status in ('live', 'scheduled') group by w;
    insert into views_dirty values ('mv_listing_counts'), ('mv_board_revenue'), ('mv_board_billboard');
  elsif tg_op = 'DELETE' then
    insert into ranking_weeks_dirty select distinct site_id, launch_week from old_rows where launch_week is not null and status = 'live';
    insert into search_word_deltas
      select w, -count(*) from old_rows o cross join search_words_of(o.name, o.tagline, o.keywords, o.description) w
      where o.status in ('live', 'scheduled') group by w;
    insert into views_dirty values ('mv_listing_counts'), ('mv_board_revenue'), ('mv_board_billboard');
  else
    insert into listing_stats_dirty
      select n.id from new_rows n join old_rows o on o.id = n.id
      where (n.site_id, n.status, n.launch_week, n.launched_at, n.owner_user_id, n.company_id)
            is distinct from (o.site_id, o.status, o.launch_week, o.launched_at, o.owner_user_id, o.company_id);
    insert into ranking_weeks_dirty
      select distinct w.site_id, w.week from new_rows n join old_rows o on o.id = n.id
      cross join lateral (values (o.site_id, o.launch_week, o.status), (n.site_id, n.launch_week, n.status)) w(site_id, week, status)
      where (n.site_id, n.status, n.launch_week, n.launched_at) is distinct from (o.site_id, o.status, o.launch_week, o.launched_at)
        and w.week is not null and w.status = 'live';
    if exists (select from new_rows n join old_rows o on o.id = n.id
               where (n.site_id, n.status, n.company_id) is distinct from (o.site_id, o.status, o.company_id)) then
      insert into views_dirty values ('mv_listing_counts'), ('mv_board_revenue'), ('mv_board_billboard');
    end if;
    -- The words a listing gains count +1, those it loses -1 (a listing's words are a set).
    insert into search_word_deltas
      select x.w, sum(x.d) from (
        select w, 1 as d from new_rows n join old_rows o on o.id = n.id
          cross join search_words_of(n.name, n.tagline, n.keywords, n.description) w
          where n.status in ('live', 'scheduled')
            and (n.status, n.name, n.tagline, n.keywords, n.description) is distinct from (o.status, o.name, o.tagline, o.keywords, o.description)
        union all
        select w, -1 from new_rows n join old_rows o on o.id = n.id
          cross join search_words_of(o.name, o.tagline, o.keywords, o.description) w
          where o.status in ('live', 'scheduled')
            and (n.status, n.name, n.tagline, n.keywords, n.description) is distinct from (o.status, o.name, o.tagline, o.keywords, o.description)
      ) x group by x.w having sum(x.d) <> 0;
  end if;
  return null;
end $$;
comment on function note_listing_change is 'Trigger: notes a statement''s changed listings, the launch weeks they leave or join, their words, and the views built on listings.';
create trigger listings_noted_ins after insert on listings referencing new table as new_rows for each statement execute function note_listing_change();
create trigger listings_noted_upd after update on listings referencing old table as old_rows new table as new_rows for each statement execute function note_listing_change();
create trigger listings_noted_del after delete on listings referencing old table as old_rows for each statement execute function note_listing_change();

-- The other boards' own sources.
create function note_view_source() returns trigger language plpgsql as $$
begin
  insert into views_dirty values (tg_argv[0]);
  return null;
end $$;
comment on function note_view_source is 'Trigger: notes that the materialized view named in the trigger''s argument must be refreshed.';
create trigger billboard_contributions_noted after insert or update or delete or truncate on billboard_contributions
  for each statement execute function note_view_source('mv_board_billboard');

-- A company's ratings note every listing of the company.
create function note_company_rating() returns trigger language plpgsql as $$
begin
  if tg_op <> 'DELETE' then
    insert into listing_stats_dirty select l.id from listings l where l.company_id in (select company_id from new_rows);
  end if;
  if tg_op <> 'INSERT' then
    insert into listing_stats_dirty select l.id from listings l where l.company_id in (select company_id from old_rows);
  end if;
  return null;
end $$;
comment on function note_company_rating is 'Trigger: notes every listing of the companies whose Domain Ratings a statement changed.';
create trigger domain_ratings_noted_ins after insert on domain_ratings referencing new table as new_rows for each statement execute function note_company_rating();
create trigger domain_ratings_noted_upd after update on domain_ratings referencing old table as old_rows new table as new_rows for each statement execute function note_company_rating();
create trigger domain_ratings_noted_del after delete on domain_ratings referencing old table as old_rows for each statement execute function note_company_rating();
create trigger revenue_figures_noted after insert or update or delete or truncate on revenue_figures
  for each statement execute function note_view_source('mv_board_revenue');

-- Recomputes the counters of the noted listings, re-ranks the weeks they touch and the all-time
-- board's size. Cost follows what changed, not the size of the directory.
create function refresh_listing_stats() returns void language plpgsql as $$
begin
  -- One refresh at a time: a second caller waits, then finds little left to do.
  perform pg_advisory_xact_lock(hashtext('refresh_listing_stats'));
  create temp table noted on commit drop as
    with d as (delete from listing_stats_dirty returning listing_id) select distinct listing_id from d;
  if not exists (select from noted) and not exists (select from ranking_weeks_dirty) then
    drop table noted;
    return;
  end if;
  alter table noted add primary key (listing_id);
  analyze noted;

  create temp table fresh on commit drop as
  select l.id as listing_id, l.site_id, l.status = 'live' as live, l.launch_week, l.launched_at,
         coalesce(v.votes, 0)::int as votes, coalesce(v.week_votes, 0)::int as week_votes,
         coalesce(v.trend_log, '-infinity')::float8 as trend_log,
         coalesce(f.follows, 0)::int as follows, coalesce(w.views, 0)::bigint as views,
         r.rating_avg, coalesce(r.rating_count, 0)::int as rating_count
  from noted n join listings l on l.id = n.listing_id
  left join (
    select z.listing_id, count(*) as votes, count(*) filter (where z.in_week) as week_votes,
           -- log-sum-exp: shifted by the largest term, so no exp() overflows
           max(z.top) + ln(sum(exp(greatest(z.x - z.top, -700)))) as trend_log
    from (select vo.listing_id, trend_x(vo.created_at) as x,
                 max(trend_x(vo.created_at)) over (partition by vo.listing_id) as top,
                 vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
                   and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc') as in_week
          from noted n2 join votes vo on vo.listing_id = n2.listing_id join listings li on li.id = vo.listing_id) z
    group by z.listing_id) v on v.listing_id = l.id
  left join (select fo.listing_id, count(*) as follows from noted n3 join follows fo on fo.listing_id = n3.listing_id
             group by fo.listing_id) f on f.listing_id = l.id
  left join (select lv.listing_id, sum(lv.views) as views from noted n4 join listing_views lv on lv.listing_id = n4.listing_id
             group by lv.listing_id) w on w.listing_id = l.id
  left join (select rv.listing_id, round(avg(rv.rating)::numeric, 2)::float8 as rating_avg, count(*) as rating_count
             from noted n5 join reviews rv on rv.listing_id = n5.listing_id join listings ol on ol.id = rv.listing_id
             where not rv.flagged and rv.user_id is distinct from ol.owner_user_id
             group by rv.listing_id) r on r.listing_id = l.id;

  -- A week is re-ranked when a listing joins it, leaves it, or moves within it.
  insert into ranking_weeks_dirty
    select distinct x.site_id, x.week
    from fresh f left join listing_stats s on s.listing_id = f.listing_id
    cross join lateral (values (s.site_id, s.launch_week, s.live), (f.site_id, f.launch_week, f.live)) x(site_id, week, live)
    where (f.site_id, f.live, f.launch_week, f.launched_at, f.week_votes)
          is distinct from (s.site_id, s.live, s.launch_week, s.launched_at, s.week_votes)
      and x.live and x.week is not null;

  insert into listing_stats select * from fresh
  on conflict (listing_id) do update set
    site_id = excluded.site_id, live = excluded.live, launch_week = excluded.launch_week, launched_at = excluded.launched_at,
    votes = excluded.votes, week_votes = excluded.week_votes, trend_log = excluded.trend_log, follows = excluded.follows,
    views = excluded.views, rating_avg = excluded.rating_avg, rating_count = excluded.rating_count
  where (listing_stats.*) is distinct from (excluded.*);

  create temp table weeks on commit drop as
    with d as (delete from ranking_weeks_dirty returning site_id, week) select distinct site_id, week from d;
  delete from weekly_ranking r using weeks w where r.site_id = w.site_id and r.week = w.week;
  insert into weekly_ranking (listing_id, site_id, week, votes, rank, total)
  select s.listing_id, s.site_id, s.launch_week, s.week_votes,
         row_number() over (partition by s.site_id, s.launch_week
                            order by s.week_votes desc, s.launched_at asc nulls last, s.listing_id asc)::int,
         count(*) over (partition by s.site_id, s.launch_week)::int
  from weeks w join listing_stats s on s.site_id = w.site_id and s.launch_week = w.week and s.live;

  -- The latest Domain Rating of the noted listings' companies and its four-week change.
  delete from listing_domain_rating r using noted n where r.listing_id = n.listing_id;
  insert into listing_domain_rating (listing_id, site_id, live, rating, measured_on, trend)
  select l.id, l.site_id, l.status = 'live', la.rating, la.measured_on, la.rating - e.rating
  from noted n join listings l on l.id = n.listing_id
  cross join lateral (select d.rating, d.measured_on from domain_ratings d where d.company_id = l.company_id
                      order by d.measured_on desc limit 1) la
  left join lateral (select d.rating from domain_ratings d where d.company_id = l.company_id and d.measured_on <= la.measured_on - 28
                     order by d.measured_on desc limit 1) e on true;

  -- The boards' sizes, counted from their partial indexes.
  insert into board_totals (site_id, board, total)
  select st.id, b.board, b.total
  from sites st
  cross join lateral (values
    ('community-all-time', (select count(*) from listing_stats s where s.site_id = st.id and s.live and s.votes > 0)),
    ('domain-rating', (select count(*) from listing_domain_rating r where r.site_id = st.id and r.live))) b(board, total)
  on conflict (site_id, board) do update set total = excluded.total where board_totals.total <> excluded.total;

  drop table noted;
  drop table fresh;
  drop table weeks;
end $$;
comment on function refresh_listing_stats is 'Recomputes listing_stats for listings noted since the last call, re-ranks the weeks they touch, and counts the all-time board.';

create function refresh_search_words() returns void language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_words'));
  create temp table word_moves on commit drop as
    with d as (delete from search_word_deltas returning word, delta)
    select word, sum(delta)::int as delta from d group by word having sum(delta) <> 0;
  merge into search_words s using word_moves m on s.word = m.word
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (word, listings) values (m.word, m.delta);
  drop table word_moves;
end $$;
comment on function refresh_search_words is 'Applies the words listings gained or lost since the last call to search_words.';

create or replace function refresh_directory_views() returns void language plpgsql as $$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
  if 'mv_listing_counts' = any(stale) then refresh materialized view concurrently mv_listing_counts; end if;
  if 'mv_board_billboard' = any(stale) then refresh materialized view concurrently mv_board_billboard; end if;
  if 'mv_board_revenue' = any(stale) then refresh materialized view concurrently mv_board_revenue; end if;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $$;
comment on function refresh_directory_views is 'Brings counters, rankings and the views whose sources changed up to date, and tells edges to drop cached reads.';

create or replace function award_week(p_site int, p_week date) returns int language sql as $$
  with winners as (
    insert into awards (site_id, listing_id, week, rank, votes)
    select r.site_id, r.listing_id, r.week, r.rank, r.votes
    from weekly_ranking r
    where r.site_id = p_site and r.week = p_week and r.rank <= 3 and r.votes > 0
      and p_week + 7 <= (now() at time zone 'utc')::date
    on conflict (site_id, week, rank) do nothing
    returning 1)
  select count(*)::int from winners;
$$;
comment on function award_week is 'Grants Launch of the Week #1-#3 for a finished week from weekly_ranking; idempotent.';

drop materialized view mv_board_all_time;
drop materialized view mv_weekly_ranking;
drop materialized view mv_listing_stats;
drop materialized view mv_board_domain_rating;

-- Everything as it stands now.
insert into listing_stats_dirty select id from listings;
select refresh_listing_stats();
insert into search_words (word, listings)
select w, count(*) from listings l cross join search_words_of(l.name, l.tagline, l.keywords, l.description) w
where l.status in ('live', 'scheduled') group by w;

-- Typo correction reads search_words (the same words the view held).
create or replace function typo_tsquery(q text) returns tsquery language plpgsql stable parallel safe as $$
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
        select c.word from (select word from search_words order by word <-> term, word limit 6) c
        where c.word <> term and levenshtein(c.word, term) <= case when length(term) >= 7 then 2 else 1 end
        union
        -- An adjacent swap ("notoin" -> "notion") is one typo, though Levenshtein counts two.
        select s.word from search_words s
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
drop materialized view mv_search_words;

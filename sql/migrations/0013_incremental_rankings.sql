-- Incremental rankings. Recomputing every counter from every vote took 92 s at a million listings
-- and 8 million votes, once a minute. Now triggers note what changed (which listings, which words,
-- which views' sources) in queue tables, and refresh_directory_views() recomputes only that:
-- - listing_stats: one row of counters per listing, recomputed for the listings noted since the
--   last refresh;
-- - launch weeks and the all-time and Domain Rating boards are ranked as read, from indexes in
--   rank order (a stored rank would shift for every listing one passes); weekly_ranking is a view
--   awards read their top 3 from;
-- - the sizes of boards, weeks and paged lists (board_totals, week_totals, listing_counts) move by
--   what the noted listings counted before and after (recounted after a listing is deleted);
-- - category pages and counts (category_members, category_counts) likewise;
-- - search_words (typo correction) and search_lexemes (what a search prefix stands for) move by the
--   words a listing gains or loses;
-- - the remaining views (billboard, revenue: small) are refreshed only when a source changed.
-- Everything is as of the last refresh (about a minute), as the views were.

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
-- Each launch week in rank order: votes cast during the week, then launch time, then id.
create index listing_stats_week_rank on listing_stats (site_id, launch_week, week_votes desc, launched_at asc nulls last, listing_id)
  where live and launch_week is not null;
comment on table listing_stats is 'Votes, trending, follows, views and the genuine community rating per listing, as of the last refresh.';

-- Launch weeks ranked as read.
create view weekly_ranking as
select s.listing_id, s.site_id, s.launch_week as week, s.week_votes as votes,
       row_number() over (partition by s.site_id, s.launch_week
                          order by s.week_votes desc, s.launched_at asc nulls last, s.listing_id)::int as rank,
       count(*) over (partition by s.site_id, s.launch_week)::int as total
from listing_stats s
where s.live and s.launch_week is not null;
comment on view weekly_ranking is 'Per launch week, live launches ranked by the votes cast during that week (as of the last refresh); awards follow it. Pages walk listing_stats_week_rank instead.';

create table week_totals (
  site_id int not null,
  week date not null,
  total int not null check (total >= 0),
  primary key (site_id, week)
);
comment on table week_totals is 'Live launches per launch week as of the last refresh: the size of each week''s ranking.';

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

create table listing_counts (
  site_id int not null,
  status text not null,
  listings int not null check (listings >= 0),
  primary key (site_id, status)
);
comment on table listing_counts is 'Listings per site and status as of the last refresh: totals of paged lists.';
create table listing_count_deltas (site_id int not null, status text not null, delta int not null);
comment on table listing_count_deltas is 'Listings that entered (+) or left (-) a site and status since the last refresh.';

create table category_members (
  category_id int not null references categories(id) on delete cascade,
  listing_id bigint not null references listings(id) on delete cascade,
  site_id int not null,
  -- Tagged with this category itself; else only through one of its subcategories.
  direct boolean not null,
  votes int not null,
  launched_at timestamptz,
  primary key (category_id, listing_id)
);
create index category_members_page on category_members (site_id, category_id, votes desc, launched_at desc nulls last, listing_id);
create index category_members_listing on category_members (listing_id);
comment on table category_members is 'Live listings per category page (tagged with it or one of its subcategories), with what orders the page, as of the last refresh.';

create table category_counts (
  site_id int not null,
  category_id int not null references categories(id) on delete cascade,
  -- Live listings in the category or its subcategories (each once), and tagged with it itself.
  listings int not null check (listings >= 0),
  direct int not null check (direct >= 0),
  primary key (site_id, category_id)
);
comment on table category_counts is 'Live listings per category (count and direct_count of the category tree), as of the last refresh.';

create table search_lexemes (
  lexeme text primary key,
  listings int not null check (listings > 0)
);
create index search_lexemes_prefix on search_lexemes (lexeme text_pattern_ops);
comment on table search_lexemes is 'Distinct lexemes of listings.search, with how many listings have each: what a search prefix can stand for.';
create table search_lexeme_deltas (lexeme text not null, delta int not null);
comment on table search_lexeme_deltas is 'Lexemes listings gained (+1) or lost (-1) since the last refresh.';

-- What changed since the last refresh. No keys: a vote's trigger appends and never waits on a
-- refresh that is taking the rows away.
create table listing_stats_dirty (listing_id bigint not null);
comment on table listing_stats_dirty is 'Listings whose counters or ranking inputs changed since the last refresh (repeats allowed).';
create table views_dirty (view_name text not null);
comment on table views_dirty is 'Materialized views whose sources changed since the last refresh (repeats allowed).';

-- Votes, follows, views, reviews and category tags note their listings.
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
  foreach t in array array['votes', 'follows', 'listing_views', 'reviews', 'listing_categories'] loop
    execute format('create trigger %I after insert on %I referencing new table as new_rows for each statement execute function note_listing_activity()', t || '_noted_ins', t);
    execute format('create trigger %I after update on %I referencing old table as old_rows new table as new_rows for each statement execute function note_listing_activity()', t || '_noted_upd', t);
    execute format('create trigger %I after delete on %I referencing old table as old_rows for each statement execute function note_listing_activity()', t || '_noted_del', t);
  end loop;
end $$;

-- A listing's own row: its counters' inputs (status, week, launch time, owner, company), its
-- words, its status counts, and the views built from listings.
create function note_listing_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into listing_stats_dirty select id from new_rows;
    insert into search_word_deltas
      select w, count(*) from new_rows n cross join search_words_of(n.name, n.tagline, n.keywords, n.description) w
      where n.status in ('live', 'scheduled') group by w;
    insert into listing_count_deltas select site_id, status, count(*) from new_rows group by site_id, status;
    insert into views_dirty values ('mv_board_revenue'), ('mv_board_billboard');
  elsif tg_op = 'DELETE' then
    insert into search_word_deltas
      select w, -count(*) from old_rows o cross join search_words_of(o.name, o.tagline, o.keywords, o.description) w
      where o.status in ('live', 'scheduled') group by w;
    insert into listing_count_deltas select site_id, status, -count(*) from old_rows group by site_id, status;
    -- A deleted listing leaves listing_stats (by cascade) without passing through a refresh: the
    -- boards' and weeks' sizes are recounted at the next one.
    insert into views_dirty values ('mv_board_revenue'), ('mv_board_billboard'), ('board_totals');
  else
    insert into listing_stats_dirty
      select n.id from new_rows n join old_rows o on o.id = n.id
      where (n.site_id, n.status, n.launch_week, n.launched_at, n.owner_user_id, n.company_id)
            is distinct from (o.site_id, o.status, o.launch_week, o.launched_at, o.owner_user_id, o.company_id);
    if exists (select from new_rows n join old_rows o on o.id = n.id
               where (n.site_id, n.status, n.company_id) is distinct from (o.site_id, o.status, o.company_id)) then
      insert into views_dirty values ('mv_board_revenue'), ('mv_board_billboard');
      insert into listing_count_deltas
        select x.site_id, x.status, sum(x.d) from new_rows n join old_rows o on o.id = n.id
        cross join lateral (values (n.site_id, n.status, 1), (o.site_id, o.status, -1)) x(site_id, status, d)
        where (n.site_id, n.status) is distinct from (o.site_id, o.status)
        group by x.site_id, x.status having sum(x.d) <> 0;
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
comment on function note_listing_change is 'Trigger: notes a statement''s changed listings, their words and status counts, and the views built on listings.';
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

create function note_listing_category() returns trigger language plpgsql as $$
begin
  insert into listing_stats_dirty
    select n.id from new_rows n join old_rows o on o.id = n.id where n.primary_category_id is distinct from o.primary_category_id;
  return null;
end $$;
comment on function note_listing_category is 'Trigger: notes the listings whose primary category a statement changed.';
create trigger listings_category_noted after update on listings
  referencing old table as old_rows new table as new_rows for each statement execute function note_listing_category();

create function note_category_parent() returns trigger language plpgsql as $$
begin
  insert into listing_stats_dirty
    select lc.listing_id from listing_categories lc
    where lc.category_id in (select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id)
    union
    select l.id from listings l
    where l.primary_category_id in (select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id);
  return null;
end $$;
comment on function note_category_parent is 'Trigger: notes the listings of categories whose parent a statement changed.';
create trigger categories_parent_noted after update on categories
  referencing old table as old_rows new table as new_rows for each statement execute function note_category_parent();

create function note_listing_lexemes() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into search_lexeme_deltas
      select x, count(*) from new_rows n cross join unnest(tsvector_to_array(n.search)) x group by x;
  elsif tg_op = 'DELETE' then
    insert into search_lexeme_deltas
      select x, -count(*) from old_rows o cross join unnest(tsvector_to_array(o.search)) x group by x;
  else
    insert into search_lexeme_deltas
      select x.lexeme, sum(x.d) from (
        select l as lexeme, 1 as d from new_rows n join old_rows o on o.id = n.id
          cross join unnest(tsvector_to_array(n.search)) l where n.search is distinct from o.search
        union all
        select l, -1 from new_rows n join old_rows o on o.id = n.id
          cross join unnest(tsvector_to_array(o.search)) l where n.search is distinct from o.search
      ) x group by x.lexeme having sum(x.d) <> 0;
  end if;
  return null;
end $$;
comment on function note_listing_lexemes is 'Trigger: records the lexemes of listings.search a statement added or removed.';
create trigger listings_lexemes_ins after insert on listings referencing new table as new_rows for each statement execute function note_listing_lexemes();
create trigger listings_lexemes_upd after update on listings referencing old table as old_rows new table as new_rows for each statement execute function note_listing_lexemes();
create trigger listings_lexemes_del after delete on listings referencing old table as old_rows for each statement execute function note_listing_lexemes();

create function refresh_listing_counts() returns void language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_listing_counts'));
  create temp table count_moves on commit drop as
    with d as (delete from listing_count_deltas returning site_id, status, delta)
    select site_id, status, sum(delta)::int as delta from d group by site_id, status having sum(delta) <> 0;
  merge into listing_counts c using count_moves m on c.site_id = m.site_id and c.status = m.status
  when matched and c.listings + m.delta = 0 then delete
  when matched then update set listings = c.listings + m.delta
  when not matched then insert (site_id, status, listings) values (m.site_id, m.status, m.delta);
  drop table count_moves;
end $$;
comment on function refresh_listing_counts is 'Applies the listings that entered or left a site and status since the last call to listing_counts.';

-- Brings category_members and category_counts up to date for the listings in the temp table
-- noted, whose new counters are in the temp table fresh (refresh_listing_stats makes both).
create function refresh_category_members(recount boolean) returns void language plpgsql as $$
begin
  create temp table members_before on commit drop as
    select m.* from noted n cross join lateral (select * from category_members m where m.listing_id = n.listing_id offset 0) m;
  create temp table members_after on commit drop as
    with tagged as (
      select lc.listing_id, lc.category_id from noted n join listing_categories lc on lc.listing_id = n.listing_id
      union
      select l.id, l.primary_category_id from noted n join listings l on l.id = n.listing_id where l.primary_category_id is not null)
    select f.site_id, x.category_id, f.listing_id, bool_or(x.direct) as direct, f.votes, f.launched_at
    from fresh f
    join (select t.listing_id, t.category_id, true as direct from tagged t
          union all
          select t.listing_id, c.parent_id, false from tagged t join categories c on c.id = t.category_id where c.parent_id is not null) x
      on x.listing_id = f.listing_id
    where f.live
    group by f.site_id, x.category_id, f.listing_id, f.votes, f.launched_at;

  delete from category_members m using members_before b
  where m.category_id = b.category_id and m.listing_id = b.listing_id
    and not exists (select from members_after a where a.category_id = b.category_id and a.listing_id = b.listing_id);
  insert into category_members (category_id, listing_id, site_id, direct, votes, launched_at)
  select category_id, listing_id, site_id, direct, votes, launched_at from members_after
  on conflict (category_id, listing_id) do update set
    site_id = excluded.site_id, direct = excluded.direct, votes = excluded.votes, launched_at = excluded.launched_at
  where (category_members.site_id, category_members.direct, category_members.votes, category_members.launched_at)
        is distinct from (excluded.site_id, excluded.direct, excluded.votes, excluded.launched_at);

  if recount then
    delete from category_counts;
    insert into category_counts (site_id, category_id, listings, direct)
    select site_id, category_id, count(*), count(*) filter (where direct) from category_members group by site_id, category_id;
  else
    merge into category_counts k
    using (select site_id, category_id, sum(n)::int as listings, sum(d)::int as direct from (
             select site_id, category_id, 1 as n, direct::int as d from members_after
             union all
             select site_id, category_id, -1, -direct::int from members_before) x
           group by site_id, category_id having sum(n) <> 0 or sum(d) <> 0) m
    on k.site_id = m.site_id and k.category_id = m.category_id
    when matched and k.listings + m.listings = 0 then delete
    when matched then update set listings = k.listings + m.listings, direct = k.direct + m.direct
    when not matched then insert (site_id, category_id, listings, direct) values (m.site_id, m.category_id, m.listings, m.direct);
  end if;
  drop table members_before;
  drop table members_after;
end $$;
comment on function refresh_category_members is 'Moves category_members and category_counts for the listings noted by refresh_listing_stats (recounting the counts when asked).';

-- Recomputes the counters of the noted listings and moves everything built on them. Cost follows
-- what changed, not the size of the directory.
create function refresh_listing_stats() returns void language plpgsql as $$
declare
  recount boolean;
begin
  -- One refresh at a time: a second caller waits, then finds little left to do.
  perform pg_advisory_xact_lock(hashtext('refresh_listing_stats'));
  with d as (delete from views_dirty where view_name = 'board_totals' returning 1) select count(*) > 0 into recount from d;
  create temp table noted on commit drop as
    with d as (delete from listing_stats_dirty returning listing_id) select distinct listing_id from d;
  if not recount and not exists (select from noted) then
    drop table noted;
    return;
  end if;
  alter table noted add primary key (listing_id);
  analyze noted;

  -- The noted listings' rows as they were. Probed one by one (offset 0 keeps the planner from
  -- hashing all of listing_stats for a few thousand rows).
  create temp table before on commit drop as
    select s.* from noted n cross join lateral (select * from listing_stats s where s.listing_id = n.listing_id offset 0) s;
  create temp table rated_before on commit drop as
    select r.* from noted n cross join lateral (select * from listing_domain_rating r where r.listing_id = n.listing_id offset 0) r;

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

  -- The latest Domain Rating of the noted listings' companies and its four-week change.
  create temp table rated on commit drop as
  select l.id as listing_id, l.site_id, l.status = 'live' as live, la.rating, la.measured_on, la.rating - e.rating as trend
  from noted n join listings l on l.id = n.listing_id
  cross join lateral (select d.rating, d.measured_on from domain_ratings d where d.company_id = l.company_id
                      order by d.measured_on desc limit 1) la
  left join lateral (select d.rating from domain_ratings d where d.company_id = l.company_id and d.measured_on <= la.measured_on - 28
                     order by d.measured_on desc limit 1) e on true;

  insert into listing_stats select * from fresh
  on conflict (listing_id) do update set
    site_id = excluded.site_id, live = excluded.live, launch_week = excluded.launch_week, launched_at = excluded.launched_at,
    votes = excluded.votes, week_votes = excluded.week_votes, trend_log = excluded.trend_log, follows = excluded.follows,
    views = excluded.views, rating_avg = excluded.rating_avg, rating_count = excluded.rating_count
  where (listing_stats.*) is distinct from (excluded.*);

  delete from listing_domain_rating r using noted n
  where r.listing_id = n.listing_id and not exists (select from rated x where x.listing_id = r.listing_id);
  insert into listing_domain_rating (listing_id, site_id, live, rating, measured_on, trend)
  select listing_id, site_id, live, rating, measured_on, trend from rated
  on conflict (listing_id) do update set site_id = excluded.site_id, live = excluded.live, rating = excluded.rating,
    measured_on = excluded.measured_on, trend = excluded.trend
  where (listing_domain_rating.*) is distinct from (excluded.*);

  perform refresh_category_members(recount);

  -- After a bulk load (a seed, a migration), fresh planner statistics: without them the boards'
  -- pages plan as if a handful of rows were ranked, and sort all of them.
  if (select count(*) from noted) > 10000 then
    analyze listing_stats;
    analyze listing_domain_rating;
    analyze category_members;
  end if;

  if recount then
    delete from board_totals;
    insert into board_totals (site_id, board, total)
    select site_id, 'community-all-time', count(*) from listing_stats where live and votes > 0 group by site_id
    union all
    select site_id, 'domain-rating', count(*) from listing_domain_rating where live group by site_id;
    delete from week_totals;
    insert into week_totals (site_id, week, total)
    select site_id, launch_week, count(*) from listing_stats where live and launch_week is not null group by site_id, launch_week;
  else
    -- Each size moves by what the noted listings count in it now less what they counted before.
    insert into board_totals (site_id, board, total)
    select x.site_id, x.board, sum(x.d) from (
      select site_id, 'community-all-time' as board, 1 as d from fresh where live and votes > 0
      union all select site_id, 'community-all-time', -1 from before where live and votes > 0
      union all select site_id, 'domain-rating', 1 from rated where live
      union all select site_id, 'domain-rating', -1 from rated_before where live) x
    group by x.site_id, x.board having sum(x.d) <> 0
    on conflict (site_id, board) do update set total = board_totals.total + excluded.total;
    create temp table week_moves on commit drop as
    select x.site_id, x.week, sum(x.d)::int as delta from (
      select site_id, launch_week as week, 1 as d from fresh where live and launch_week is not null
      union all select site_id, launch_week, -1 from before where live and launch_week is not null) x
    group by x.site_id, x.week having sum(x.d) <> 0;
    merge into week_totals t using week_moves m on t.site_id = m.site_id and t.week = m.week
    when matched and t.total + m.delta = 0 then delete
    when matched then update set total = t.total + m.delta
    when not matched then insert (site_id, week, total) values (m.site_id, m.week, m.delta);
    drop table week_moves;
  end if;

  drop table noted;
  drop table before;
  drop table rated_before;
  drop table fresh;
  drop table rated;
end $$;
comment on function refresh_listing_stats is 'Recomputes listing_stats (and Domain Ratings, category pages, board and week sizes) for the listings noted since the last call.';

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

create function refresh_search_lexemes() returns void language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_lexemes'));
  create temp table lexeme_moves on commit drop as
    with d as (delete from search_lexeme_deltas returning lexeme, delta)
    select lexeme, sum(delta)::int as delta from d group by lexeme having sum(delta) <> 0;
  merge into search_lexemes s using lexeme_moves m on s.lexeme = m.lexeme
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (lexeme, listings) values (m.lexeme, m.delta);
  drop table lexeme_moves;
end $$;
comment on function refresh_search_lexemes is 'Applies the lexemes listings gained or lost since the last call to search_lexemes.';

-- Typo correction. Each term also matches as a prefix ('pro':*); GIN answers `rare & common` fast by
-- skipping through the common term's postings, but not for a prefix, which it expands into every
-- listing of every word with it first. So the match spells a prefix out as the indexed lexemes it
-- stands for when there are at most 40; ranking keeps the prefix form, so scores do not change.
create function typo_tsqueries(q text, out ranked tsquery, out matched tsquery) language plpgsql stable parallel safe as $$
declare
  terms text[];
  term text;
  alt tsquery;
  alt_matched tsquery;
  known text[];
  w text;
  has_content boolean;
begin
  select array_agg(t order by ord) into terms from (
    select t, min(ord) as ord
    from regexp_split_to_table(lower(unaccent(q)), '[^[:alnum:]]+') with ordinality as x(t, ord)
    where t <> '' group by t order by min(ord) limit 8) s;
  if terms is null then return; end if;
  -- English stop words match nothing in the stemmed columns: drop them unless nothing else is left.
  has_content := exists (select 1 from unnest(terms) t where numnode(plainto_tsquery('english', t)) > 0);
  foreach term in array terms loop
    continue when has_content and numnode(plainto_tsquery('english', term)) = 0;
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
    -- For matching, a prefix becomes the indexed words it stands for when they are few: GIN then
    -- skips through a common term's postings using a rare one, which it cannot do for a prefix.
    alt_matched := alt;
    if length(term) >= 3 then
      select array_agg(lexeme) into known
      from (select lexeme from search_lexemes where lexeme like term || '%' order by lexeme limit 41) x;
      -- None known (a misspelling, or a word added since the last refresh): the prefix itself.
      if cardinality(known) between 1 and 40 then
        -- Cast, not to_tsquery: each lexeme as it is indexed, never re-parsed into several.
        alt_matched := (select string_agg(quote_literal(k), ' | ') from unnest(known) k)::tsquery || plainto_tsquery('english', term);
      end if;
    end if;
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
        alt_matched := alt_matched || to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
      end loop;
    end if;
    ranked := case when ranked is null then alt else ranked && alt end;
    matched := case when matched is null then alt_matched else matched && alt_matched end;
  end loop;
end $$;
comment on function typo_tsqueries is 'The typo-tolerant tsquery of free text twice: as ranked (terms as prefixes) and as matched (a prefix spelled out as the known lexemes it stands for, when at most 40).';

create or replace function typo_tsquery(q text) returns tsquery language sql stable parallel safe as $$
  select ranked from typo_tsqueries(q)
$$;

create or replace function refresh_directory_views() returns void language plpgsql as $$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  perform refresh_search_lexemes();
  perform refresh_listing_counts();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
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
drop materialized view mv_search_words;
drop materialized view mv_listing_counts;

-- Everything as it stands now: what the triggers would have recorded had they always been there.
insert into listing_counts select site_id, status, count(*)::int from listings group by site_id, status;
insert into search_words (word, listings)
select w, count(*) from listings l cross join search_words_of(l.name, l.tagline, l.keywords, l.description) w
where l.status in ('live', 'scheduled') group by w;
insert into search_lexemes (lexeme, listings)
select x, count(*) from listings cross join unnest(tsvector_to_array(search)) x group by x;
insert into listing_stats_dirty select id from listings;
select refresh_listing_stats();
analyze listing_stats;
analyze listing_domain_rating;
analyze category_members;
analyze search_words;
analyze search_lexemes;

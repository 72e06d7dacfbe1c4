-- Incremental rankings, continued (0013). At a million listings most of a refresh after a busy
-- minute still went to rewriting ranks and to counting: a vote in this week's ranking shifted the
-- stored rank of every listing it passed (and one listing joining a week rewrote the whole week's
-- total), and the boards' sizes (0.6 s) and listings per status (0.8 s) were counted afresh. Now:
-- - launch weeks are ranked as read, like the all-time board, from a listing_stats index in rank
--   order; weekly_ranking becomes a view (award_week reads its top 3), and each week's size is
--   kept in week_totals;
-- - the boards' and weeks' sizes move by what the noted listings count in them before and after
--   (a deleted listing, which leaves listing_stats without a refresh, has them recounted);
-- - listings per site and status move by deltas the listings trigger records, so
--   mv_listing_counts becomes the table listing_counts.

create table listing_counts (
  site_id int not null,
  status text not null,
  listings int not null check (listings >= 0),
  primary key (site_id, status)
);
comment on table listing_counts is 'Listings per site and status as of the last refresh: totals of paged lists.';
create table listing_count_deltas (site_id int not null, status text not null, delta int not null);
comment on table listing_count_deltas is 'Listings that entered (+) or left (-) a site and status since the last refresh.';
insert into listing_counts select site_id, status, count(*)::int from listings group by site_id, status;
drop materialized view mv_listing_counts;

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

-- Launch weeks ranked as read.
drop table weekly_ranking;
drop table ranking_weeks_dirty;
drop index listing_stats_week;
create index listing_stats_week_rank on listing_stats (site_id, launch_week, week_votes desc, launched_at asc nulls last, listing_id)
  where live and launch_week is not null;
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
insert into week_totals (site_id, week, total)
select site_id, launch_week, count(*) from listing_stats where live and launch_week is not null group by site_id, launch_week;

create or replace function note_listing_change() returns trigger language plpgsql as $$
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


create or replace function refresh_listing_stats() returns void language plpgsql as $$
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

  -- After a bulk load (a seed, a migration), fresh planner statistics: without them the boards'
  -- pages plan as if a handful of rows were ranked, and sort all of them.
  if (select count(*) from noted) > 10000 then
    analyze listing_stats;
    analyze listing_domain_rating;
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

create or replace function refresh_directory_views() returns void language plpgsql as $$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  perform refresh_listing_counts();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
  if 'mv_board_billboard' = any(stale) then refresh materialized view concurrently mv_board_billboard; end if;
  if 'mv_board_revenue' = any(stale) then refresh materialized view concurrently mv_board_revenue; end if;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $$;

-- The tables 0013 filled, with planner statistics.
analyze listing_stats;
analyze listing_domain_rating;

-- Category counts and pages from tables the refresh keeps (0013, 0014). Counting every live
-- listing of every category took 320 ms per uncached /categories at 100k listings (about 3 s at a
-- million), and a category page ranked all of its listings per request. Now:
-- - category_members holds, per live listing, the categories whose page shows it: the ones it is
--   tagged with (primary or extra) and their parents, with its votes and launch time, so a page
--   walks an index in page order;
-- - category_counts holds each category's counts, moved by what the noted listings counted before
--   and after (recounted from category_members after a listing is deleted).
-- Both are as of the last refresh (about a minute), like every ranking and total.

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

-- A listing's categories: its own tags, its primary category, and (through categories) parents.
do $$
begin
  execute 'create trigger listing_categories_noted_ins after insert on listing_categories referencing new table as new_rows for each statement execute function note_listing_activity()';
  execute 'create trigger listing_categories_noted_upd after update on listing_categories referencing old table as old_rows new table as new_rows for each statement execute function note_listing_activity()';
  execute 'create trigger listing_categories_noted_del after delete on listing_categories referencing old table as old_rows for each statement execute function note_listing_activity()';
end $$;

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

-- The refresh moves the categories of the listings it recomputes.
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

-- Every live listing, as it stands now.
create temp table noted as select id as listing_id from listings where status = 'live';
create temp table fresh as select * from listing_stats where listing_id in (select listing_id from noted);
select refresh_category_members(true);
drop table noted;
drop table fresh;
analyze category_members;

-- Rankings and counts: the minute refresh (refresh_directory_views) and the notes of what changed since.

CREATE OR REPLACE FUNCTION public.listing_category_to_stats()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update listing_stats s set primary_category_id = new.primary_category_id where s.listing_id = new.id;
  return null;
end $function$;
comment on function listing_category_to_stats() is 'Carries a listing''s new primary category into its listing_stats row.';

CREATE OR REPLACE FUNCTION public.listing_facets(p_stage text, p_country text, p_pricing_model text)
 RETURNS TABLE(facet text, value text)
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select x.facet, x.value from (values ('stage', p_stage), ('country', p_country), ('pricing', lower(p_pricing_model))) x(facet, value)
  where x.value is not null
$function$;
comment on function listing_facets(p_stage text, p_country text, p_pricing_model text) is 'The facets a listing is counted under in listing_facet_counts: its stage, country and pricing model in lower case.';

CREATE OR REPLACE FUNCTION public.listing_stats_category()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  new.primary_category_id := (select l.primary_category_id from listings l where l.id = new.listing_id);
  return new;
end $function$;
comment on function listing_stats_category() is 'Sets a listing_stats row''s primary category from its listing as the row is inserted.';

CREATE OR REPLACE FUNCTION public.note_category_parent()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into listing_stats_dirty
    select lc.listing_id from listing_categories lc
    where lc.category_id in (select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id)
    union
    select l.id from listings l
    where l.primary_category_id in (select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id);
  return null;
end $function$;
comment on function note_category_parent() is 'Trigger: notes the listings of categories whose parent a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_activity()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op <> 'DELETE' then insert into listing_stats_dirty select distinct listing_id from new_rows; end if;
  if tg_op <> 'INSERT' then insert into listing_stats_dirty select distinct listing_id from old_rows; end if;
  return null;
end $function$;
comment on function note_listing_activity() is 'Trigger: notes the listings whose votes, follows, views or reviews a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_category()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into listing_stats_dirty
    select n.id from new_rows n join old_rows o on o.id = n.id where n.primary_category_id is distinct from o.primary_category_id;
  return null;
end $function$;
comment on function note_listing_category() is 'Trigger: notes the listings whose primary category a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function note_listing_change() is 'Trigger: notes a statement''s changed listings, their words and status counts, and the views built on listings.';

CREATE OR REPLACE FUNCTION public.note_listing_facet_moves()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' then
    insert into listing_facet_count_deltas
      select n.site_id, x.facet, x.value, count(*) from new_rows n cross join listing_facets(n.stage, n.country, n.pricing_model) x
      where n.status = 'live' group by n.site_id, x.facet, x.value;
  elsif tg_op = 'DELETE' then
    insert into listing_facet_count_deltas
      select o.site_id, x.facet, x.value, -count(*) from old_rows o cross join listing_facets(o.stage, o.country, o.pricing_model) x
      where o.status = 'live' group by o.site_id, x.facet, x.value;
  else
    insert into listing_facet_count_deltas
      select y.site_id, x.facet, x.value, sum(y.d) from new_rows n join old_rows o on o.id = n.id
      cross join lateral (values (n.site_id, n.status, n.stage, n.country, n.pricing_model, 1),
                                 (o.site_id, o.status, o.stage, o.country, o.pricing_model, -1)) y(site_id, status, stage, country, pricing_model, d)
      cross join listing_facets(y.stage, y.country, y.pricing_model) x
      where (n.site_id, n.status, n.stage, n.country, lower(n.pricing_model))
            is distinct from (o.site_id, o.status, o.stage, o.country, lower(o.pricing_model))
        and y.status = 'live'
      group by y.site_id, x.facet, x.value having sum(y.d) <> 0;
  end if;
  return null;
end $function$;
comment on function note_listing_facet_moves() is 'Trigger: notes the live listings a statement moved into or out of a site''s stage, country or pricing model.';

CREATE OR REPLACE FUNCTION public.note_primary_category_moves()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' then
    insert into primary_category_count_deltas
      select site_id, primary_category_id, count(*) from new_rows
      where status = 'live' and primary_category_id is not null group by site_id, primary_category_id;
  elsif tg_op = 'DELETE' then
    insert into primary_category_count_deltas
      select site_id, primary_category_id, -count(*) from old_rows
      where status = 'live' and primary_category_id is not null group by site_id, primary_category_id;
  else
    insert into primary_category_count_deltas
      select x.site_id, x.category_id, sum(x.d) from new_rows n join old_rows o on o.id = n.id
      cross join lateral (values (n.site_id, n.primary_category_id, n.status, 1), (o.site_id, o.primary_category_id, o.status, -1))
        x(site_id, category_id, status, d)
      where (n.site_id, n.status, n.primary_category_id) is distinct from (o.site_id, o.status, o.primary_category_id)
        and x.status = 'live' and x.category_id is not null
      group by x.site_id, x.category_id having sum(x.d) <> 0;
  end if;
  return null;
end $function$;
comment on function note_primary_category_moves() is 'Trigger: notes the live listings a statement moved into or out of a site and primary category.';

CREATE OR REPLACE FUNCTION public.note_view_source()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into views_dirty values (tg_argv[0]);
  return null;
end $function$;
comment on function note_view_source() is 'Trigger: notes that the materialized view named in the trigger''s argument must be refreshed.';

CREATE OR REPLACE FUNCTION public.primary_category_live(p_site integer, p_category integer)
 RETURNS integer
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select (coalesce((select listings from primary_category_counts where site_id = p_site and category_id = p_category), 0)
        + coalesce((select sum(delta) from primary_category_count_deltas where site_id = p_site and category_id = p_category), 0))::int
$function$;
comment on function primary_category_live(p_site integer, p_category integer) is 'Live listings of a site whose primary category (listings.primary_category_id) is this one, as of now.';

CREATE OR REPLACE FUNCTION public.refresh_category_members(recount boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function refresh_category_members(recount boolean) is 'Moves category_members and category_counts for the listings noted by refresh_listing_stats (recounting the counts when asked).';

CREATE OR REPLACE FUNCTION public.refresh_directory_views()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  perform refresh_search_lexemes();
  perform refresh_listing_counts();
  perform refresh_primary_category_counts();
  perform refresh_listing_facet_counts();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
  if 'mv_board_billboard' = any(stale) then refresh materialized view concurrently mv_board_billboard; end if;
  if 'mv_board_revenue' = any(stale) then refresh materialized view concurrently mv_board_revenue; end if;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $function$;
comment on function refresh_directory_views() is 'Brings counters, rankings and the views whose sources changed up to date, and tells edges to drop cached reads.';

CREATE OR REPLACE FUNCTION public.refresh_listing_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function refresh_listing_counts() is 'Applies the listings that entered or left a site and status since the last call to listing_counts.';

CREATE OR REPLACE FUNCTION public.refresh_listing_facet_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_listing_facet_counts'));
  create temp table facet_moves on commit drop as
    with d as (delete from listing_facet_count_deltas returning site_id, facet, value, delta)
    select site_id, facet, value, sum(delta)::int as delta from d group by site_id, facet, value having sum(delta) <> 0;
  merge into listing_facet_counts c using facet_moves m on c.site_id = m.site_id and c.facet = m.facet and c.value = m.value
  when matched and c.listings + m.delta = 0 then delete
  when matched then update set listings = c.listings + m.delta
  when not matched then insert (site_id, facet, value, listings) values (m.site_id, m.facet, m.value, m.delta);
  drop table facet_moves;
end $function$;
comment on function refresh_listing_facet_counts() is 'Applies the live listings that entered or left a site''s stage, country or pricing model since the last call to listing_facet_counts.';

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
          -- Only the votes and follows that count (80_views.sql).
          from noted n2 join counted_votes vo on vo.listing_id = n2.listing_id join listings li on li.id = vo.listing_id) z
    group by z.listing_id) v on v.listing_id = l.id
  left join (select fo.listing_id, count(*) as follows from noted n3 join counted_follows fo on fo.listing_id = n3.listing_id
             group by fo.listing_id) f on f.listing_id = l.id
  left join (select lv.listing_id, sum(lv.views) as views from noted n4 join listing_views lv on lv.listing_id = n4.listing_id
             group by lv.listing_id) w on w.listing_id = l.id
  left join (select rv.listing_id, round(avg(rv.rating)::numeric, 2)::float8 as rating_avg, count(*) as rating_count
             from noted n5 join reviews rv on rv.listing_id = n5.listing_id join listings ol on ol.id = rv.listing_id
             where not rv.flagged and rv.user_id is distinct from ol.owner_user_id
               and not exists (select from users su where su.id = rv.user_id and su.suspended_at is not null)
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
comment on function refresh_listing_stats is 'Recomputes (counting only votes not discounted and reviews not hidden, neither by a suspended person) listing_stats (and Domain Ratings, category pages, board and week sizes) for the listings noted since the last call.';

CREATE OR REPLACE FUNCTION public.refresh_primary_category_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_primary_category_counts'));
  create temp table primary_category_moves on commit drop as
    with d as (delete from primary_category_count_deltas returning site_id, category_id, delta)
    select site_id, category_id, sum(delta)::int as delta from d group by site_id, category_id having sum(delta) <> 0;
  merge into primary_category_counts c using primary_category_moves m on c.site_id = m.site_id and c.category_id = m.category_id
  when matched and c.listings + m.delta = 0 then delete
  when matched then update set listings = c.listings + m.delta
  when not matched then insert (site_id, category_id, listings) values (m.site_id, m.category_id, m.delta);
  drop table primary_category_moves;
end $function$;
comment on function refresh_primary_category_counts() is 'Applies the live listings that entered or left a site and primary category since the last call to primary_category_counts.';

CREATE OR REPLACE FUNCTION public.trend_x(t timestamp with time zone)
 RETURNS double precision
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select (extract(epoch from t)::float8 - 1735689600) * ln(2) / 259200
$function$;
comment on function trend_x(t timestamp with time zone) is 'A vote''s weight on the log scale of trend_log: ln(2) per 3 days since 2025-01-01.';

CREATE OR REPLACE FUNCTION public.trending_now(trend_log double precision)
 RETURNS double precision
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  -- Clamped: exp() of a vote years old would underflow and fail.
  select exp(greatest(trend_log - trend_x(now()), -700))
$function$;
comment on function trending_now(trend_log double precision) is 'The trending score as of now: the sum of 2^(-age / 3 days) over the listing''s votes.';

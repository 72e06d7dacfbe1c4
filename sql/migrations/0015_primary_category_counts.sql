-- Live listings per site and primary category, kept instead of counted: a listing's alternatives
-- give the size of its category's group as `total`, and every listing page reads it. Counting the
-- category's live listings took 1.5 ms of index reads at 100k listings (2,700 in a category) and
-- about 4 ms at a million.
--
-- As listing_counts does: a statement trigger appends what entered or left a (site, category) to an
-- unkeyed queue (a bulk statement adds one row per category it touched, and no writer waits on a
-- refresh), and the refresh folds the queue into the kept counts. A read adds the queue's rows of
-- its category to the kept count, so the figure is exact as of the read, between refreshes too.

create table primary_category_counts (
  site_id int not null,
  category_id int not null,
  listings int not null check (listings >= 0),
  primary key (site_id, category_id)
);
comment on table primary_category_counts is 'Live listings per site and primary category (listings.primary_category_id) as of the last refresh; primary_category_live() adds the moves since.';

create table primary_category_count_deltas (site_id int not null, category_id int not null, delta int not null);
comment on table primary_category_count_deltas is 'Live listings that entered (+) or left (-) a site and primary category since the last refresh.';

create function note_primary_category_moves() returns trigger language plpgsql as $$
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
end $$;
comment on function note_primary_category_moves is 'Trigger: notes the live listings a statement moved into or out of a site and primary category.';
create trigger listings_primary_category_ins after insert on listings referencing new table as new_rows for each statement execute function note_primary_category_moves();
create trigger listings_primary_category_upd after update on listings referencing old table as old_rows new table as new_rows for each statement execute function note_primary_category_moves();
create trigger listings_primary_category_del after delete on listings referencing old table as old_rows for each statement execute function note_primary_category_moves();

create function primary_category_live(p_site int, p_category int) returns int language sql stable parallel safe as $$
  select (coalesce((select listings from primary_category_counts where site_id = p_site and category_id = p_category), 0)
        + coalesce((select sum(delta) from primary_category_count_deltas where site_id = p_site and category_id = p_category), 0))::int
$$;
comment on function primary_category_live is 'Live listings of a site whose primary category (listings.primary_category_id) is this one, as of now.';

create function refresh_primary_category_counts() returns void language plpgsql as $$
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
end $$;
comment on function refresh_primary_category_counts is 'Applies the live listings that entered or left a site and primary category since the last call to primary_category_counts.';

-- Restated from 0013 with the fold of the new queue added.
create or replace function refresh_directory_views() returns void language plpgsql as $$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  perform refresh_search_lexemes();
  perform refresh_listing_counts();
  perform refresh_primary_category_counts();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
  if 'mv_board_billboard' = any(stale) then refresh materialized view concurrently mv_board_billboard; end if;
  if 'mv_board_revenue' = any(stale) then refresh materialized view concurrently mv_board_revenue; end if;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $$;

-- Everything as it stands now: what the trigger would have recorded had it always been there.
insert into primary_category_counts (site_id, category_id, listings)
select site_id, primary_category_id, count(*)::int from listings
where status = 'live' and primary_category_id is not null group by site_id, primary_category_id;

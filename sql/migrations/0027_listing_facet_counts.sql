-- Live listings per site and stage, country and pricing model (lower case), kept instead of
-- counted: a list filtered by one of them (search_listings without q) counted its matches on every
-- request, 5-10 ms at 100k for a broad stage and ten times that at a million, and needed the count
-- to choose between walking the sort's order and sorting the matches. Kept as listing_counts and
-- primary_category_counts are: a statement trigger appends what entered or left a (site, facet,
-- value) to an unkeyed queue, the refresh folds the queue in, and a read adds the queue's rows to
-- the kept count, so the figure is exact as of the read.

create table listing_facet_counts (
  site_id int not null,
  facet text not null check (facet in ('stage', 'country', 'pricing')),
  value text not null,
  listings int not null check (listings >= 0),
  primary key (site_id, facet, value)
);
comment on table listing_facet_counts is 'Live listings per site and stage, country or pricing model (lower(pricing_model)) as of the last refresh; listing_facet_count_deltas holds the moves since.';

create table listing_facet_count_deltas (site_id int not null, facet text not null, value text not null, delta int not null);
comment on table listing_facet_count_deltas is 'Live listings that entered (+) or left (-) a site, facet and value since the last refresh.';

-- A listing's facets as rows (facet, value); a value it does not have (null) is left out.
create function listing_facets(p_stage text, p_country text, p_pricing_model text) returns table (facet text, value text)
language sql immutable parallel safe as $$
  select x.facet, x.value from (values ('stage', p_stage), ('country', p_country), ('pricing', lower(p_pricing_model))) x(facet, value)
  where x.value is not null
$$;
comment on function listing_facets is 'The facets a listing is counted under in listing_facet_counts: its stage, country and pricing model in lower case.';

create function note_listing_facet_moves() returns trigger language plpgsql as $$
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
end $$;
comment on function note_listing_facet_moves is 'Trigger: notes the live listings a statement moved into or out of a site''s stage, country or pricing model.';
create trigger listings_facets_ins after insert on listings referencing new table as new_rows for each statement execute function note_listing_facet_moves();
create trigger listings_facets_upd after update on listings referencing old table as old_rows new table as new_rows for each statement execute function note_listing_facet_moves();
create trigger listings_facets_del after delete on listings referencing old table as old_rows for each statement execute function note_listing_facet_moves();

create function refresh_listing_facet_counts() returns void language plpgsql as $$
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
end $$;
comment on function refresh_listing_facet_counts is 'Applies the live listings that entered or left a site''s stage, country or pricing model since the last call to listing_facet_counts.';

-- Restated from 0015 with the fold of the new queue added.
create or replace function refresh_directory_views() returns void language plpgsql as $$
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
end $$;

-- Everything as it stands now: what the trigger would have recorded had it always been there.
insert into listing_facet_counts (site_id, facet, value, listings)
select l.site_id, x.facet, x.value, count(*)::int from listings l cross join listing_facets(l.stage, l.country, l.pricing_model) x
where l.status = 'live' group by l.site_id, x.facet, x.value;

-- The directory's writes and rules: votes, follows, views, launch weeks, awards, categories, change notices.

CREATE OR REPLACE FUNCTION public.allocate_free_week(p_listing bigint)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
declare
  v_site int;
  v_min int; v_max int; v_slots int;
  v_cur date := date_trunc('week', now() at time zone 'utc')::date;
  v_week date;
begin
  select site_id into v_site from listings where id = p_listing;
  if v_site is null then return null; end if;
  perform pg_advisory_xact_lock(7301912, v_site);
  select free_queue_min_weeks, free_queue_max_weeks, launch_slots_per_week into v_min, v_max, v_slots from sites where id = v_site;
  select w into v_week
  from generate_series(v_cur + 7 * v_min, v_cur + 7 * v_max, interval '7 days') as g(ts), lateral (select g.ts::date as w) d
  where (select count(*) from listings o where o.site_id = v_site and o.launch_week = d.w and o.status <> 'draft') < v_slots
  order by w limit 1;
  if v_week is null then return null; end if;
  update listings set status = 'awaiting_badge', launch_week = v_week, free_queued_at = now(), status_changed_at = now(),
         status_reason = 'badge_not_checked', status_detail = null, updated_at = now()
  where id = p_listing;
  return v_week;
end $function$;
comment on function allocate_free_week(p_listing bigint) is 'Queues a free listing in the earliest launch week between the site''s free_queue_min_weeks and free_queue_max_weeks that has fewer than launch_slots_per_week listings (any status but draft); null when every week is full. Serialised per site by an advisory lock.';

CREATE OR REPLACE FUNCTION public.award_week(p_site integer, p_week date)
 RETURNS integer
 LANGUAGE sql
AS $function$
  with winners as (
    insert into awards (site_id, listing_id, week, rank, votes)
    select r.site_id, r.listing_id, r.week, r.rank, r.votes
    from weekly_ranking r
    where r.site_id = p_site and r.week = p_week and r.rank <= 3 and r.votes > 0
      and p_week + 7 <= (now() at time zone 'utc')::date
    on conflict (site_id, week, rank) do nothing
    returning 1)
  select count(*)::int from winners;
$function$;
comment on function award_week(p_site integer, p_week date) is 'Grants Launch of the Week #1-#3 for a finished week from weekly_ranking; idempotent.';

CREATE OR REPLACE FUNCTION public.cast_vote(p_listing bigint, p_user bigint)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
declare l record;
begin
  select id, status, owner_user_id into l from listings where id = p_listing;
  if l.id is null or l.status <> 'live' then return 'not_live'; end if;
  if l.owner_user_id = p_user then return 'own_listing'; end if;
  insert into votes (listing_id, user_id) values (p_listing, p_user) on conflict (listing_id, user_id) do nothing;
  return 'voted';
end $function$;
comment on function cast_vote(p_listing bigint, p_user bigint) is 'Records a person''s vote for a live listing (idempotent). Returns voted, not_live or own_listing (owners do not vote for their own listing).';

CREATE OR REPLACE FUNCTION public.categories_two_levels()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if new.parent_id is not null and exists (select 1 from categories where id = new.parent_id and parent_id is not null) then
    raise exception 'categories are two levels deep' using errcode = 'check_violation';
  end if;
  return new;
end $function$;
comment on function categories_two_levels() is 'Trigger on categories: a child''s parent must itself be top-level (the tree is two levels deep).';

CREATE OR REPLACE FUNCTION public.directory_changed()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
declare g bigint := nextval('cache_generation');
begin
  perform pg_notify('directory_changed', g::text);
  return g;
end $function$;
comment on function directory_changed() is 'Call in any transaction that changes what public reads show.';

CREATE OR REPLACE FUNCTION public.follow_listing(p_listing bigint, p_user bigint)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
begin
  if not exists (select 1 from listings where id = p_listing and status = 'live') then return 'not_live'; end if;
  insert into follows (listing_id, user_id) values (p_listing, p_user) on conflict (listing_id, user_id) do nothing;
  return 'following';
end $function$;
comment on function follow_listing(p_listing bigint, p_user bigint) is 'Starts following a live listing (idempotent). Returns following or not_live.';

CREATE OR REPLACE FUNCTION public.listing_categories_at_most_four()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if (select count(*) from listing_categories where listing_id = new.listing_id and not is_primary) > 3 then
    raise exception 'a listing has at most 3 extra categories' using errcode = 'check_violation';
  end if;
  return new;
end $function$;
comment on function listing_categories_at_most_four() is 'Trigger on listing_categories: a listing has its primary category and at most 3 extra ones.';

CREATE OR REPLACE FUNCTION public.record_listing_view(p_listing bigint, p_visitor text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
declare
  today date := (now() at time zone 'utc')::date;
  s text;
  h bytea;
  fresh int;
begin
  select salt into s from view_salts where day = today;
  if s is null then
    insert into view_salts (day, salt) values (today, gen_random_uuid()::text || gen_random_uuid()::text)
      on conflict (day) do nothing;
    select salt into s from view_salts where day = today;
    delete from view_salts where day < today;
    delete from listing_view_visitors where day < today;
  end if;
  h := sha256(convert_to(s || ':' || p_listing::text || ':' || p_visitor, 'UTF8'));
  insert into listing_view_visitors (listing_id, day, visitor) values (p_listing, today, h) on conflict do nothing;
  get diagnostics fresh = row_count;
  if fresh = 0 then return false; end if;
  insert into listing_views (listing_id, day, views) values (p_listing, today, 1)
    on conflict (listing_id, day) do update set views = listing_views.views + 1;
  return true;
end $function$;
comment on function record_listing_view(p_listing bigint, p_visitor text) is 'Counts a view of a listing at most once per visitor per UTC day; the visitor is hashed with the day''s salt, never stored raw. Returns true when counted.';

-- The maker picks the free launch week: a second allocate_free_week takes the requested week when
-- it is a Monday inside the site's free queue window with a slot left (the same count and the same
-- per-site lock as the earliest-week one, which stays as it was).
create or replace function allocate_free_week(p_listing bigint, p_week date) returns date language plpgsql as $$
declare
  v_site int;
  v_min int; v_max int; v_slots int;
  v_cur date := date_trunc('week', now() at time zone 'utc')::date;
begin
  select site_id into v_site from listings where id = p_listing;
  if v_site is null or p_week is null then return null; end if;
  perform pg_advisory_xact_lock(7301912, v_site);
  select free_queue_min_weeks, free_queue_max_weeks, launch_slots_per_week into v_min, v_max, v_slots from sites where id = v_site;
  if extract(isodow from p_week) <> 1 or p_week < v_cur + 7 * v_min or p_week > v_cur + 7 * v_max then return null; end if;
  if (select count(*) from listings o where o.site_id = v_site and o.launch_week = p_week and o.status <> 'draft') >= v_slots then return null; end if;
  update listings set status = 'awaiting_badge', launch_week = p_week, free_queued_at = now(), status_changed_at = now(),
         status_reason = 'badge_not_checked', status_detail = null, updated_at = now()
  where id = p_listing;
  return p_week;
end $$;
comment on function allocate_free_week(bigint, date) is 'Queues a free listing in the requested launch week when it is a Monday between the site''s free_queue_min_weeks and free_queue_max_weeks with fewer than launch_slots_per_week listings (any status but draft); null otherwise. Serialised per site by the same advisory lock as allocate_free_week(bigint).';

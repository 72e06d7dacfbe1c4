-- The maker picks the free launch week: a second allocate_free_week takes the requested week when
-- it is a Monday inside the site's free queue window with a slot left (the same count and the same
-- per-site lock as the earliest-week one, which stays as it was).
create function allocate_free_week(p_listing bigint, p_week date) returns date language plpgsql as $$
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

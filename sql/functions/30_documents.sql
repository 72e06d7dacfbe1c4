-- Listing documents: a listing's stored profile (listing_document) and the notes that mark it stale.

CREATE OR REPLACE FUNCTION public.listing_document(listing bigint)
 RETURNS json
 LANGUAGE sql
 STABLE
AS $function$
  select row_to_json(x) from (
    select l.id::int as id, l.slug, l.name, l.url, l.domain, null::text as profile_url,
      l.tagline, l.short_description, l.description, l.headline, l.summary, l.features, l.usps, l.keywords,
      json_build_object('model', l.pricing_model, 'summary', l.pricing_summary) as pricing,
      l.stage, l.country, l.city, l.founded_year, l.demo_video_url, l.contact_email, l.logo_url,
      json_build_object('title', l.seo_title, 'description', l.seo_description) as seo,
      (select coalesce(json_agg(json_build_object('slug', c.slug, 'name', c.name, 'primary', c.id = pc.id,
                'parent', case when p.id is null then null else json_build_object('slug', p.slug, 'name', p.name) end)
              order by c.id = pc.id desc, c.position, c.name), '[]')
       from (select pc.id union select lc.category_id from listing_categories lc where lc.listing_id = l.id) k (id)
       join categories c on c.id = k.id left join categories p on p.id = c.parent_id) as categories,
      (select coalesce(json_agg(json_build_object('slug', f.slug, 'name', f.name, 'title', f.title, 'avatar_url', f.avatar_url,
                'socials', f.socials, 'primary', f.n = 1) order by f.n), '[]')
       from (select fo.slug, fo.name, coalesce(lf.role, fo.title) as title, fo.avatar_url, fo.socials,
                    row_number() over (order by lf.position, fo.id) as n
             from listing_founders lf join founders fo on fo.id = lf.founder_id where lf.listing_id = l.id) f) as founders,
      (select coalesce(json_agg(json_build_object('question', q.question, 'answer', q.answer) order by q.position, q.id), '[]')
       from listing_faqs q where q.listing_id = l.id) as faqs,
      (select coalesce(json_object_agg(so.platform, so.url order by so.platform), '{}')
       from listing_socials so where so.listing_id = l.id) as socials,
      (select coalesce(json_agg(json_build_object('id', u.id, 'title', u.title, 'body', u.body,
                'created_at', to_char(u.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')) order by u.created_at desc, u.id desc), '[]')
       from (select * from listing_updates where listing_id = l.id order by created_at desc, id desc limit 5) u) as latest_updates,
      null::json as community_rating,
      case when dr.rating is null then null else json_build_object(
        'rating', dr.rating, 'measured_on', to_char(dr.measured_on, 'YYYY-MM-DD'), 'trend', dr.rating - dr_prev.rating,
        'history', (select json_agg(json_build_object('measured_on', to_char(h.measured_on, 'YYYY-MM-DD'), 'rating', h.rating) order by h.measured_on)
                    from (select measured_on, rating from domain_ratings where company_id = l.company_id
                          order by measured_on desc limit 12) h)) end as domain_rating,
      null::json as links, null::int as votes, null::int as follows, null::int as views,
      to_char(l.launch_week, 'YYYY-MM-DD') as launch_week, to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as launched_at,
      l.plan, l.not_found_on_website,
      case when 'story' = any(l.unlocked_sections) then (
        select json_build_object('title', fs.title, 'story', fs.story, 'why_started', fs.why_started, 'problem', fs.problem,
                 'journey', fs.journey, 'challenges', fs.challenges, 'achievements', fs.achievements, 'lessons', fs.lessons,
                 'whats_next', fs.whats_next, 'updated_at', to_char(fs.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
        from founder_stories fs where fs.listing_id = l.id) end as story,
      case when 'milestones' = any(l.unlocked_sections) then (
        select coalesce(json_agg(json_build_object('id', m.id, 'date', to_char(m.date, 'YYYY-MM-DD'), 'title', m.title,
                 'description', m.description, 'url', m.url) order by m.date desc, m.id desc), '[]')
        from milestones m where m.listing_id = l.id) end as milestones,
      case when 'media' = any(l.unlocked_sections) then (
        select coalesce(json_agg(json_build_object('kind', me.kind, 'url', me.url, 'caption', me.caption) order by me.position, me.id), '[]')
        from listing_media me where me.listing_id = l.id) end as media,
      null::text as featured_until,
      (select json_build_object('body', r.body, 'quotes', r.quotes, 'created_at', to_char(r.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
       from listing_ai_reviews r where r.listing_id = l.id and not r.hidden order by r.created_at desc, r.id desc limit 1) as ai_review
    from listings l
    -- The primary category: the listing's column, else the listing_categories row marked primary.
    cross join lateral (select coalesce(l.primary_category_id,
      (select lc.category_id from listing_categories lc where lc.listing_id = l.id and lc.is_primary)) as id) pc
    -- Domain Rating: the latest measurement and, for the trend, the latest one at least 28 days older
    -- (the same rule as the domain-rating leaderboard).
    left join lateral (select rating, measured_on from domain_ratings where company_id = l.company_id
                       order by measured_on desc limit 1) dr on true
    left join lateral (select rating from domain_ratings where company_id = l.company_id and measured_on <= dr.measured_on - 28
                       order by measured_on desc limit 1) dr_prev on true
    where l.id = listing
  ) x
$function$;
comment on function listing_document(listing bigint) is 'A listing''s public profile without its live parts (counters, rating, featured window, links), as stored in listing_documents.';

CREATE OR REPLACE FUNCTION public.note_category_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform stale_listing_documents(array(
    with changed as (select id from new_rows union select id from old_rows),
    shown as (select id from changed union select c.id from categories c where c.parent_id in (select id from changed))
    select lc.listing_id from listing_categories lc where lc.category_id in (select id from shown)
    union
    select l.id from listings l where l.primary_category_id in (select id from shown)));
  return null;
end $function$;
comment on function note_category_document() is 'Trigger: marks stale the profiles of the listings of categories (and of their children) a statement changed.';

CREATE OR REPLACE FUNCTION public.note_company_rating()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op <> 'DELETE' then
    insert into listing_stats_dirty select l.id from listings l where l.company_id in (select company_id from new_rows);
  end if;
  if tg_op <> 'INSERT' then
    insert into listing_stats_dirty select l.id from listings l where l.company_id in (select company_id from old_rows);
  end if;
  return null;
end $function$;
comment on function note_company_rating() is 'Trigger: notes every listing of the companies whose Domain Ratings a statement changed.';

CREATE OR REPLACE FUNCTION public.note_documents_emptied()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update listing_documents set body = null, version = version + 1 where body is not null;
  return null;
end $function$;
comment on function note_documents_emptied() is 'Trigger: marks every stored profile stale when a table profiles are built from is emptied.';

CREATE OR REPLACE FUNCTION public.note_founder_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  perform stale_listing_documents(array(
    select lf.listing_id from listing_founders lf where lf.founder_id in (select id from new_rows union select id from old_rows)));
  return null;
end $function$;
comment on function note_founder_document() is 'Trigger: marks stale the profiles of the listings of founders a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
declare
  unshown constant text[] := array['created_at', 'updated_at', 'status_changed_at', 'status_reason', 'status_detail',
    'free_queued_at', 'badge_checked_at', 'badge_seen_at', 'last_crawled_at', 'search', 'search_rank'];
begin
  perform stale_listing_documents(array(
    select n.id from new_rows n join old_rows o on o.id = n.id
    where to_jsonb(n) - unshown is distinct from to_jsonb(o) - unshown));
  return null;
end $function$;
comment on function note_listing_document() is 'Trigger: marks stale the profiles of the listings whose shown columns a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_rows()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op <> 'DELETE' then perform stale_listing_documents(array(select listing_id from new_rows)); end if;
  if tg_op <> 'INSERT' then perform stale_listing_documents(array(select listing_id from old_rows)); end if;
  return null;
end $function$;
comment on function note_listing_rows() is 'Trigger: marks stale the profiles of the listings whose rows (FAQs, founders, updates, ...) a statement changed.';

CREATE OR REPLACE FUNCTION public.note_rating_document()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op <> 'DELETE' then
    perform stale_listing_documents(array(select l.id from listings l where l.company_id in (select company_id from new_rows)));
  end if;
  if tg_op <> 'INSERT' then
    perform stale_listing_documents(array(select l.id from listings l where l.company_id in (select company_id from old_rows)));
  end if;
  return null;
end $function$;
comment on function note_rating_document() is 'Trigger: marks stale the profiles of the listings of companies whose Domain Ratings a statement changed.';

CREATE OR REPLACE FUNCTION public.stale_listing_documents(ids bigint[])
 RETURNS void
 LANGUAGE sql
AS $function$
  insert into listing_documents as d (listing_id, version, body)
  select x.id, 1, null from (select distinct unnest(ids) as id) x
  -- A listing deleted in this transaction (its rows go by cascade) has no document to keep.
  where exists (select from listings l where l.id = x.id)
  on conflict (listing_id) do update set version = d.version + 1, body = null
$function$;
comment on function stale_listing_documents(ids bigint[]) is 'Marks the stored profiles of these listings stale: body null, version + 1.';

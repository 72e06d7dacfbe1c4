-- A listing's public profile reads 15 tables, and building it took most of an uncached
-- get_listing: about 0.5 ms of PostgreSQL's time against 0.1 ms for the stored document and the
-- listing's counters (100k listings). So the profile's slow-changing part is kept as one JSON
-- document per listing, and only what changes all the time or with the clock is read live: the
-- counters and rating (listing_stats), the featured window (listing_featured) and the links,
-- which depend on the edge's SITE_URL.
--
-- How a document stays true: every write to a table the document is built from marks the
-- documents of the listings it touched stale (body null, version + 1), in the writer's own
-- transaction. A reader that finds no body builds it (listing_document) and stores it only if no
-- writer holds the document's row (a read never waits on a write) and its version is still the one
-- the reader saw: a write that committed after the reader's first look has bumped it, and the
-- store does nothing. A migration that changes what
-- listing_document builds must mark every document stale (update listing_documents set body =
-- null, version = version + 1; sql/queries/listing-documents.test.ts checks the later migrations).

create table listing_documents (
  listing_id bigint primary key references listings (id) on delete cascade,
  version bigint not null default 0,
  body json
);
comment on table listing_documents is 'Each listing''s public profile as built by listing_document(), or null when stale; version changes on every write the profile reads (migration 0021).';

-- The profile without the live parts: their keys are present as null so that the profile keeps its
-- members' order when the edge fills them in (profile_url, community_rating, links, votes,
-- follows, views, featured_until).
create function listing_document(listing bigint) returns json language sql stable as $$
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
$$;
comment on function listing_document(bigint) is 'A listing''s public profile without its live parts (counters, rating, featured window, links), as stored in listing_documents.';

create function stale_listing_documents(ids bigint[]) returns void language sql as $$
  insert into listing_documents as d (listing_id, version, body)
  select x.id, 1, null from (select distinct unnest(ids) as id) x
  -- A listing deleted in this transaction (its rows go by cascade) has no document to keep.
  where exists (select from listings l where l.id = x.id)
  on conflict (listing_id) do update set version = d.version + 1, body = null
$$;
comment on function stale_listing_documents(bigint[]) is 'Marks the stored profiles of these listings stale: body null, version + 1.';

-- Rows that belong to one listing.
create function note_listing_rows() returns trigger language plpgsql as $$
begin
  if tg_op <> 'DELETE' then perform stale_listing_documents(array(select listing_id from new_rows)); end if;
  if tg_op <> 'INSERT' then perform stale_listing_documents(array(select listing_id from old_rows)); end if;
  return null;
end $$;
comment on function note_listing_rows is 'Trigger: marks stale the profiles of the listings whose rows (FAQs, founders, updates, ...) a statement changed.';

do $$
declare t text;
begin
  foreach t in array array['listing_categories', 'listing_founders', 'listing_faqs', 'listing_socials', 'listing_updates',
                           'founder_stories', 'milestones', 'listing_media', 'listing_ai_reviews'] loop
    execute format('create trigger %I after insert on %I referencing new table as new_rows for each statement execute function note_listing_rows()', t || '_doc_ins', t);
    execute format('create trigger %I after update on %I referencing old table as old_rows new table as new_rows for each statement execute function note_listing_rows()', t || '_doc_upd', t);
    execute format('create trigger %I after delete on %I referencing old table as old_rows for each statement execute function note_listing_rows()', t || '_doc_del', t);
  end loop;
end $$;

-- A listing's own row. Any column change counts except those the profile never shows and that
-- change on their own (bookkeeping, crawl and badge times, derived search vectors), so that a
-- column the profile shows later is covered without touching this trigger.
create function note_listing_document() returns trigger language plpgsql as $$
declare
  unshown constant text[] := array['created_at', 'updated_at', 'status_changed_at', 'status_reason', 'status_detail',
    'free_queued_at', 'badge_checked_at', 'badge_seen_at', 'last_crawled_at', 'search', 'search_rank'];
begin
  perform stale_listing_documents(array(
    select n.id from new_rows n join old_rows o on o.id = n.id
    where to_jsonb(n) - unshown is distinct from to_jsonb(o) - unshown));
  return null;
end $$;
comment on function note_listing_document is 'Trigger: marks stale the profiles of the listings whose shown columns a statement changed.';
create trigger listings_doc_upd after update on listings
  referencing old table as old_rows new table as new_rows for each statement execute function note_listing_document();

-- A founder's name, title, avatar or socials appear on each of the founder's listings.
create function note_founder_document() returns trigger language plpgsql as $$
begin
  perform stale_listing_documents(array(
    select lf.listing_id from listing_founders lf where lf.founder_id in (select id from new_rows union select id from old_rows)));
  return null;
end $$;
comment on function note_founder_document is 'Trigger: marks stale the profiles of the listings of founders a statement changed.';
create trigger founders_doc_upd after update on founders
  referencing old table as old_rows new table as new_rows for each statement execute function note_founder_document();

-- A category's slug, name and order appear on its listings, and as the parent on its children's.
create function note_category_document() returns trigger language plpgsql as $$
begin
  perform stale_listing_documents(array(
    with changed as (select id from new_rows union select id from old_rows),
    shown as (select id from changed union select c.id from categories c where c.parent_id in (select id from changed))
    select lc.listing_id from listing_categories lc where lc.category_id in (select id from shown)
    union
    select l.id from listings l where l.primary_category_id in (select id from shown)));
  return null;
end $$;
comment on function note_category_document is 'Trigger: marks stale the profiles of the listings of categories (and of their children) a statement changed.';
create trigger categories_doc_upd after update on categories
  referencing old table as old_rows new table as new_rows for each statement execute function note_category_document();

-- A company's Domain Ratings appear on each of its listings.
create function note_rating_document() returns trigger language plpgsql as $$
begin
  if tg_op <> 'DELETE' then
    perform stale_listing_documents(array(select l.id from listings l where l.company_id in (select company_id from new_rows)));
  end if;
  if tg_op <> 'INSERT' then
    perform stale_listing_documents(array(select l.id from listings l where l.company_id in (select company_id from old_rows)));
  end if;
  return null;
end $$;
comment on function note_rating_document is 'Trigger: marks stale the profiles of the listings of companies whose Domain Ratings a statement changed.';
create trigger domain_ratings_doc_ins after insert on domain_ratings referencing new table as new_rows for each statement execute function note_rating_document();
create trigger domain_ratings_doc_upd after update on domain_ratings referencing old table as old_rows new table as new_rows for each statement execute function note_rating_document();
create trigger domain_ratings_doc_del after delete on domain_ratings referencing old table as old_rows for each statement execute function note_rating_document();

-- Emptying a table the document reads (TRUNCATE fires no row or statement triggers of the three
-- events above) marks every stored document stale. The listings table cannot be emptied without
-- emptying listing_documents with it (its foreign key).
create function note_documents_emptied() returns trigger language plpgsql as $$
begin
  update listing_documents set body = null, version = version + 1 where body is not null;
  return null;
end $$;
comment on function note_documents_emptied is 'Trigger: marks every stored profile stale when a table profiles are built from is emptied.';

do $$
declare t text;
begin
  foreach t in array array['listing_categories', 'listing_founders', 'listing_faqs', 'listing_socials', 'listing_updates',
                           'founder_stories', 'milestones', 'listing_media', 'listing_ai_reviews', 'founders', 'categories',
                           'domain_ratings'] loop
    execute format('create trigger %I after truncate on %I for each statement execute function note_documents_emptied()', t || '_doc_emptied', t);
  end loop;
end $$;

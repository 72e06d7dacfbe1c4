-- Owners: the version history and moderation feed of listing edits, and the free launch queue
-- with its publishing lifecycle (awaiting_badge -> scheduled -> live).

create table listing_versions (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  site_id int not null references sites(id) on delete cascade,
  user_id bigint references users(id) on delete set null,
  credential text not null check (credential ~ '^(key|grant):[0-9]{1,19}$'),
  operation text not null check (operation ~ '^[a-z_]{1,60}$'),
  before jsonb not null check (jsonb_typeof(before) = 'object'),
  after jsonb not null check (jsonb_typeof(after) = 'object'),
  created_at timestamptz not null default now()
);
comment on table listing_versions is 'Every owner edit of a listing: the changed parts before and after, who made it, with which credential (key:<api key id> or grant:<OAuth grant id>) and when. One row per listing touched (apply_to writes one per other site).';
create index listing_versions_listing on listing_versions (listing_id, created_at desc, id desc);
create index listing_versions_site on listing_versions (site_id, created_at desc, id desc);

create view moderation_feed as
  select v.id, v.site_id, s.key as site_key, v.listing_id, l.slug, l.name, v.operation, u.email as editor_email,
         v.credential, v.before, v.after, v.created_at
  from listing_versions v
  join listings l on l.id = v.listing_id
  join sites s on s.id = v.site_id
  left join users u on u.id = v.user_id;
comment on view moderation_feed is 'The site team''s before/after copy of every owner edit, per site, newest last by id (npm run ops -- moderation).';

alter table listings
  add column status_reason text check (status_reason ~ '^[a-z_]{1,60}$'),
  add column status_detail text check (length(status_detail) <= 500),
  add column status_changed_at timestamptz,
  add column free_queued_at timestamptz,
  add column badge_checked_at timestamptz,
  add column badge_seen_at timestamptz;
comment on column listings.status_reason is 'Why the listing is in its status (badge_not_found, site_unreachable, badge_removed, badge_missing_at_launch, ...); null when nothing is wrong.';
comment on column listings.free_queued_at is 'When choose_free_listing queued this listing for a free launch week.';
comment on column listings.badge_checked_at is 'Last badge check of the homepage (free listings awaiting_badge or scheduled).';
comment on column listings.badge_seen_at is 'Last time that check found our badge.';
create index listings_publishing on listings (status, badge_checked_at) where status in ('awaiting_badge', 'scheduled');

-- Free queue: picks the earliest week in the site's window with a free slot and queues the
-- listing there. One allocation per site at a time (a transaction-scoped advisory lock keyed by
-- the site), so counting and claiming a slot cannot interleave: no week is ever overbooked.
create function allocate_free_week(p_listing bigint) returns date language plpgsql as $$
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
end $$;
comment on function allocate_free_week(bigint) is 'Queues a free listing in the earliest launch week between the site''s free_queue_min_weeks and free_queue_max_weeks that has fewer than launch_slots_per_week listings (any status but draft); null when every week is full. Serialised per site by an advisory lock.';

-- Claims: a person proves they run a listing's website (DNS TXT record, meta tag, file, or a
-- link mailed to an address at its domain) and becomes its owner.
create table claims (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  user_id bigint not null references users(id) on delete cascade,
  method text not null check (method in ('dns', 'meta', 'file', 'email')),
  email text check (length(email) <= 254),
  token text not null unique check (token ~ '^[A-Za-z0-9_-]{20,100}$'),
  link_hash text unique check (link_hash ~ '^[0-9a-f]{64}$'),
  status text not null default 'pending' check (status in ('pending', 'verified', 'expired')),
  failure_reason text check (failure_reason ~ '^[a-z_]{1,60}$'),
  failure_detail text check (length(failure_detail) <= 500),
  checked_at timestamptz,
  verified_at timestamptz,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  check ((method = 'email') = (email is not null)),
  check ((method = 'email') = (link_hash is not null)),
  check ((status = 'verified') = (verified_at is not null))
);
comment on table claims is 'Claims of a listing by a person: pending until verified (DNS TXT, meta tag, file, or the mailed link) or expired (expires_at). token is what they publish; link_hash the SHA-256 of the mailed link''s secret.';
create index claims_user on claims (user_id, created_at desc, id desc);
create index claims_listing on claims (listing_id) where status = 'verified';

create table company_owners (
  company_id bigint not null references companies(id) on delete cascade,
  user_id bigint not null references users(id) on delete cascade,
  claim_id bigint references claims(id) on delete set null,
  since timestamptz not null default now(),
  primary key (company_id, user_id)
);
comment on table company_owners is 'People who own a company through a verified claim: they own every listing of it on every site.';
create index company_owners_user on company_owners (user_id);

create table ownership_events (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  previous_user_id bigint references users(id) on delete set null,
  new_user_id bigint references users(id) on delete set null,
  claim_id bigint references claims(id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table ownership_events is 'Ownership history of listings: each verified claim, with the earlier and the new owner.';
create index ownership_events_listing on ownership_events (listing_id, created_at);

-- Followers are told about each listing update by mail, once each; the mail carries a link that
-- stops further mail for that listing without signing in.
alter table follows add column unsubscribed_at timestamptz;
comment on column follows.unsubscribed_at is 'Set by the unsubscribe link in an update mail: the person still follows but gets no more update mail.';

create table update_notifications (
  update_id bigint not null references listing_updates(id) on delete cascade,
  user_id bigint not null references users(id) on delete cascade,
  listing_id bigint not null references listings(id) on delete cascade,
  mail_id bigint references mail_outbox(id) on delete set null,
  unsubscribe_hash text not null unique check (unsubscribe_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  primary key (update_id, user_id)
);
comment on table update_notifications is 'One row per follower told about a listing update: the primary key makes the notify_followers job mail each follower exactly once however often it runs. unsubscribe_hash is the SHA-256 of the mail''s unsubscribe secret.';

-- The author of a listing update, for the version of record.
alter table listing_updates add column user_id bigint references users(id) on delete set null;
comment on column listing_updates.user_id is 'The owner who posted the update (null for seeded ones or deleted accounts).';

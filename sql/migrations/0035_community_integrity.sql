-- Community integrity: reviews nobody can silence alone, votes anyone can audit, and moderation of
-- listings and people by the site team. Nothing here is deleted to moderate: reviews, flags and
-- votes are marked (and the marks undone), and operator_audit records every decision.

-- How many flags hide a review, and how old an account must be for its flag to count.
alter table sites
  add column review_hide_flags int not null default 3 check (review_hide_flags between 1 and 100),
  add column review_flagger_min_age_days int not null default 7 check (review_flagger_min_age_days between 0 and 365);
comment on column sites.review_hide_flags is 'Flags from distinct accounts (each older than review_flagger_min_age_days when it flagged) that hide a review until the site team decides.';
comment on column sites.review_flagger_min_age_days is 'How many days old an account must be for its flag of a review to count towards review_hide_flags.';

-- Suspended people: their sessions, keys and grants are ended when suspended; their votes, reviews
-- and flags stay stored but stop counting until they are restored.
alter table users
  add column suspended_at timestamptz,
  add column suspended_reason text check (length(suspended_reason) between 1 and 500);
create index users_suspended on users (id) where suspended_at is not null;
comment on column users.suspended_at is 'When the site team suspended the account (null: not suspended); its votes, reviews and flags do not count meanwhile.';
comment on column users.suspended_reason is 'Why the account was suspended, as told to the person.';

-- Reviews: reviews.flagged now means hidden (not shown, not counted): by enough flags or by the site team.
alter table reviews
  add column moderation text check (moderation in ('kept', 'removed')),
  add column moderated_at timestamptz,
  add column moderation_reason text check (length(moderation_reason) between 1 and 500),
  add column owner_reply text check (length(btrim(owner_reply)) between 1 and 2000),
  add column owner_reply_at timestamptz,
  add column owner_reply_by bigint references users(id) on delete set null;
comment on column reviews.flagged is 'Hidden: not shown and not counted. Set when flags from enough distinct aged accounts arrive (sites.review_hide_flags) or when the site team removes the review; see review_recheck.';
comment on column reviews.moderation is 'The site team''s last decision on the flagged review: kept (its flags so far no longer count) or removed (hidden for good, still stored).';
comment on column reviews.moderated_at is 'When the site team decided on the review.';
comment on column reviews.moderation_reason is 'Why the site team kept or removed the review, as mailed to the reviewer and the flaggers.';
comment on column reviews.owner_reply is 'The listing owner''s one public answer to the review, shown under it.';
comment on column reviews.owner_reply_at is 'When the owner answered.';
comment on column reviews.owner_reply_by is 'Which owner answered.';

alter table review_flags add column resolved_at timestamptz;
comment on column review_flags.resolved_at is 'When the site team decided on the review: a resolved flag is kept as a record but no longer counts towards hiding it.';
comment on table review_flags is 'Who flagged which review. A review is hidden when flags from sites.review_hide_flags distinct accounts, each older than sites.review_flagger_min_age_days when it flagged, are unresolved; ops reviews keep|remove decides and resolves them.';

-- Flags that hid reviews under the old one-flag rule are now counted by the new rule.
-- (The same rule as review_recheck in sql/functions/60_community.sql, which migrate applies after this.)
update reviews r set flagged = (
  select count(*) from review_flags f join users u on u.id = f.user_id
  where f.review_id = r.id and f.resolved_at is null and u.suspended_at is null
    and f.created_at - u.created_at >= make_interval(days => s.review_flagger_min_age_days)) >= s.review_hide_flags
from listings l join sites s on s.id = l.site_id
where l.id = r.listing_id and r.id in (select review_id from review_flags);

-- Votes: a stable id to name them by, and the site team's discount (kept, never deleted).
alter table votes
  add column id bigint generated always as identity,
  add column discounted_at timestamptz,
  add column discount_reason text check (length(discount_reason) between 1 and 500),
  add column discounted_by text check (length(discounted_by) between 1 and 200),
  add constraint votes_discount_complete check ((discounted_at is null) = (discount_reason is null));
create unique index votes_id on votes (id);
comment on column votes.id is 'A vote''s number, by which the site team names votes to discount or restore.';
comment on column votes.discounted_at is 'When the site team discounted the vote: kept, shown in the launch integrity report, but counted by no ranking, board or award.';
comment on column votes.discount_reason is 'Why the vote was discounted; published in the launch integrity report.';
comment on column votes.discounted_by is 'Who in the site team discounted the vote.';

-- The key of the network hash: random, made here, never leaves the database.
create table vote_network_key (
  only_row boolean primary key default true check (only_row),
  key text not null
);
insert into vote_network_key (key) values (gen_random_uuid()::text || gen_random_uuid()::text);
comment on table vote_network_key is 'The secret key of vote_signals.network (one row): networks are compared by keyed hash, never stored.';

create table vote_signals (
  vote_id bigint primary key references votes(id) on delete cascade,
  account_age interval not null,
  sign_in text not null check (sign_in ~ '^[a-z_]{1,40}$'),
  network bytea,
  ua_family text not null check (ua_family ~ '^[a-z0-9_]{1,40}$'),
  visited_before boolean not null,
  created_at timestamptz not null default now()
);
create index vote_signals_created on vote_signals (created_at);
comment on table vote_signals is 'What is needed to judge a vote, without the address: the account''s age when it voted, how it signed in, a keyed hash of its /24 (IPv4) or /48 (IPv6) network, its browser family, and whether it had viewed the listing before. Kept 400 days (purge_vote_signals).';

-- Listings taken off every public surface by the site team (status hidden), with what to restore.
create table listing_holds (
  listing_id bigint primary key references listings(id) on delete cascade,
  previous_status text not null,
  previous_status_reason text,
  previous_status_detail text,
  reason text not null check (length(reason) between 1 and 500),
  actor text not null check (length(actor) between 1 and 200),
  held_at timestamptz not null default now()
);
comment on table listing_holds is 'Listings the site team hid (status hidden, status_reason hidden_by_site_team, status_detail the reason their owner sees in get_my_listing) with the status ops listings restore puts back.';

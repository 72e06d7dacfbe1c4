-- Ownership follows control of the domain, and nobody is evicted silently: an owner who proved
-- control (DNS, meta tag or file) keeps the listing and a later claimant becomes a co-owner; an
-- e-mail claim only ever makes a co-owner; an evicted owner can dispute to the site team.

alter table company_owners add column role text not null default 'owner' check (role in ('owner', 'co_owner'));
comment on column company_owners.role is
  'owner: proved control of the domain (DNS, meta tag or file claim); co_owner: added beside a proving owner, or by an e-mail claim. Both may edit; only an owner removes co-owners.';

alter table ownership_events add column kind text not null default 'owner_changed'
  check (kind in ('owner_changed', 'co_owner_added', 'co_owner_removed'));
comment on column ownership_events.kind is
  'owner_changed: the claimant became the owner (previous_user_id lost it); co_owner_added: new_user_id became a co-owner beside previous_user_id; co_owner_removed: previous_user_id (a co-owner) was removed by new_user_id (the owner).';

create table ownership_disputes (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  event_id bigint references ownership_events(id) on delete set null,
  user_id bigint references users(id) on delete set null,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  message text check (length(message) <= 2000),
  disputed_at timestamptz,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
comment on table ownership_disputes is
  'One per ownership change or co-owner added against someone: the mailed link (token_hash: SHA-256 of its secret) lets that person tell the site team it was wrong (disputed_at, message); ops claims disputes lists them.';
create index ownership_disputes_open on ownership_disputes (disputed_at desc) where disputed_at is not null;

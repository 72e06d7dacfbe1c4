-- Submission drafts: a product submitted by URL, crawled and drafted by the worker, edited by
-- its owner, then turned into a listing (submit_draft). The edge writes a draft and enqueues its
-- crawl in one transaction; the worker writes pages and drafted values back here.

create table drafts (
  id uuid primary key default gen_random_uuid(),
  site_id int not null references sites(id),
  user_id bigint not null references users(id) on delete cascade,
  url text not null check (length(url) between 1 and 2048 and url ~ '^https?://'),
  domain text not null check (length(domain) between 1 and 253),
  -- The spec names crawling, drafting and ready; failed is ours, so a draft whose crawl or
  -- drafting cannot succeed ends in a state its owner sees (with the reason) and never hangs.
  status text not null default 'crawling' check (status in ('crawling', 'drafting', 'ready', 'failed')),
  failure_reason text check (failure_reason ~ '^[a-z_]{1,40}$'),
  failure_detail text check (length(failure_detail) <= 2000),
  -- Profile fields by name: {value, state, evidence, ai: {value, evidence} | null}. A missing
  -- name has not been drafted yet; ai keeps the AI's latest proposal for restore.
  fields jsonb not null default '{}' check (jsonb_typeof(fields) = 'object'),
  -- Sections: {state, value, ai: {value} | null}; list items and map entries carry their evidence.
  faqs jsonb not null default '{}' check (jsonb_typeof(faqs) = 'object'
    and (jsonb_typeof(faqs->'value') is distinct from 'array' or jsonb_array_length(faqs->'value') <= 10)),
  founders jsonb not null default '{}' check (jsonb_typeof(founders) = 'object'
    and (jsonb_typeof(founders->'value') is distinct from 'array' or jsonb_array_length(founders->'value') <= 6)),
  company_socials jsonb not null default '{}' check (jsonb_typeof(company_socials) = 'object'),
  founder_socials jsonb not null default '{}' check (jsonb_typeof(founder_socials) = 'object'),
  story jsonb not null default '{}' check (jsonb_typeof(story) = 'object'),
  milestones jsonb not null default '{}' check (jsonb_typeof(milestones) = 'object'
    and (jsonb_typeof(milestones->'value') is distinct from 'array' or jsonb_array_length(milestones->'value') <= 50)),
  seo jsonb not null default '{}' check (jsonb_typeof(seo) = 'object'
    and coalesce(length(seo->>'title'), 0) <= 70 and coalesce(length(seo->>'meta'), 0) <= 170),
  competitor_url text check (length(competitor_url) between 1 and 2048),
  -- {status: crawling|comparing|ready|failed, url, name, points, failure_reason, failure_detail}.
  comparison jsonb check (jsonb_typeof(comparison) = 'object'),
  -- Fields and sections an AI redraft (update_draft regenerate) is working on; the job removes
  -- each one it wrote, and a user's edit of one takes it off the list (the user wins).
  regenerating text[] not null default '{}' check (cardinality(regenerating) <= 30),
  regenerate_error text check (length(regenerate_error) <= 2000),
  -- Pages the crawl left out and why (robots.txt, off site, caps), for the owner to see.
  crawl_skipped jsonb not null default '[]' check (jsonb_typeof(crawl_skipped) = 'array'),
  completeness int not null default 0 check (completeness between 0 and 100),
  missing text[] not null default '{}',
  listing_id bigint unique references listings(id) on delete set null,
  submitted_at timestamptz,
  drafted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'failed') = (failure_reason is not null))
);
comment on table drafts is 'Submissions by URL: crawled, AI-drafted with evidence, edited by the owner, turned into a listing by submit_draft. status failed extends the spec''s crawling/drafting/ready so nothing stays in progress forever.';
comment on column drafts.fields is 'Profile fields: name -> {value, state (ai, not_found, edited, manual, override, deleted), evidence [{quote, url}], ai {value, evidence} | null}.';
comment on column drafts.listing_id is 'The listing submit_draft made; later update_draft calls update it too.';
create index drafts_user on drafts (user_id, created_at desc);
-- The worker's sweep looks for drafts left in progress.
create index drafts_in_progress on drafts (updated_at) where status in ('crawling', 'drafting');

create table draft_pages (
  id bigserial primary key,
  draft_id uuid not null references drafts(id) on delete cascade,
  -- site: the submitted product's pages; competitor: the competitor_url's pages.
  kind text not null check (kind in ('site', 'competitor')),
  position int not null check (position >= 0),
  url text not null check (length(url) <= 2048),
  status int not null,
  title text check (length(title) <= 2000),
  text text not null check (length(text) <= 1000000),
  html text not null check (length(html) <= 1000000),
  fetched_at timestamptz not null,
  unique (draft_id, kind, position)
);
comment on table draft_pages is 'The stored crawl of a draft (and of its competitor): regenerate and compare redraft from it without fetching again. text is the visible text, the only evidence.';

create table draft_invites (
  id bigserial primary key,
  draft_id uuid not null references drafts(id) on delete cascade,
  email text not null check (length(email) between 3 and 254),
  token_hash text not null unique,
  invited_by bigint not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_user_id bigint references users(id) on delete set null,
  -- What the invitee entered, kept as the record of their own founder profile.
  founder jsonb check (jsonb_typeof(founder) = 'object')
);
comment on table draft_invites is 'Co-founder invites of a draft (at most 10 addresses, checked at the edge): a single-use e-mailed link (token stored as its SHA-256) to add their own founder profile.';
create unique index draft_invites_address on draft_invites (draft_id, lower(email));

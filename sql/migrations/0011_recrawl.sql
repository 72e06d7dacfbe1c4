-- Operators' batch re-crawl (npm run ops -- recrawl): a batch of listings re-crawled by the
-- worker (one recrawl_listing job per listing, one graphile-worker queue per host), and what a
-- re-crawl found that it may not write itself: proposed changes to the owner's own values and
-- facts that vanished from the site.

create table recrawl_batches (
  id uuid primary key default gen_random_uuid(),
  selector jsonb not null check (jsonb_typeof(selector) = 'object'),
  concurrency int not null default 4 check (concurrency between 1 and 64),
  created_by text not null check (length(created_by) between 1 and 200),
  created_at timestamptz not null default now(),
  cancelled_at timestamptz
);
comment on table recrawl_batches is 'One operator re-crawl command: the selector it was run with, who ran it, and whether it was cancelled.';

create table recrawl_items (
  batch_id uuid not null references recrawl_batches(id) on delete cascade,
  listing_id bigint not null references listings(id) on delete cascade,
  status text not null default 'queued' check (status in ('queued', 'done', 'failed', 'cancelled')),
  failure_reason text check (failure_reason ~ '^[a-z_]{1,40}$'),
  failure_detail text check (length(failure_detail) <= 2000),
  finished_at timestamptz,
  primary key (batch_id, listing_id)
);
comment on table recrawl_items is 'A listing of a re-crawl batch and how its re-crawl ended (queued until its job finishes).';
-- A listing waits in at most one batch: re-running a command queues nothing twice.
create unique index recrawl_items_one_queued on recrawl_items (listing_id) where status = 'queued';
create index recrawl_items_listing on recrawl_items (listing_id);

alter table listings add column last_crawled_at timestamptz;
comment on column listings.last_crawled_at is 'When an operator re-crawl last read the listing''s website (null: never re-crawled).';

create table listing_findings (
  listing_id bigint not null references listings(id) on delete cascade,
  field text not null check (field ~ '^[a-z_]{1,40}$'),
  kind text not null check (kind in ('proposed', 'vanished', 'refreshed')),
  value jsonb not null,
  evidence jsonb not null default '[]' check (jsonb_typeof(evidence) = 'array'),
  batch_id uuid references recrawl_batches(id) on delete set null,
  found_at timestamptz not null default now(),
  primary key (listing_id, field, kind)
);
comment on table listing_findings is 'What the last re-crawl of a listing found per field: refreshed (an AI value it wrote, with its quotes), proposed (a new value for a field the owner edited, locked or wrote; the owner accepts it by sending it with update_my_listing) and vanished (a value the site no longer states; kept on the listing, flagged).';

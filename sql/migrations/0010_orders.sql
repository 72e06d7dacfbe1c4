-- Orders: what an owner buys for a listing (priced from product_prices, VAT previewed), the
-- payments that settle them (one row per provider event, deduplicated), and what fulfilment
-- leaves behind (featured periods, operator tasks, AI reviews, billboard contributions).

create table orders (
  id bigserial primary key,
  number text not null unique check (number ~ '^[A-Z0-9-]{8,32}$'),
  site_id int not null references sites(id) on delete restrict,
  user_id bigint not null references users(id) on delete restrict,
  -- pending -> paid -> fulfilled; pending -> expired; paid/fulfilled -> refunded.
  status text not null default 'pending' check (status in ('pending', 'paid', 'fulfilled', 'expired', 'refunded')),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  subtotal_cents bigint not null check (subtotal_cents between 0 and 2000000000),
  vat_cents bigint not null check (vat_cents between 0 and 2000000000),
  total_cents bigint not null check (total_cents between 0 and 2000000000 and total_cents = subtotal_cents + vat_cents),
  -- {rule, rate_basis_points, country, vat_number, vat_number_valid, note}
  vat jsonb not null check (jsonb_typeof(vat) = 'object'),
  billing_name text check (length(billing_name) <= 200),
  billing_address text check (length(billing_address) <= 1000),
  billing_country text check (billing_country ~ '^[A-Z]{2}$'),
  vat_number text check (length(vat_number) <= 32),
  provider text not null check (provider in ('test', 'stripe')),
  provider_session_id text check (length(provider_session_id) <= 255),
  provider_session_url text check (length(provider_session_url) <= 2048),
  -- The session's amount: a new session is made when billing details change the total.
  provider_session_total_cents bigint,
  provider_payment_id text check (length(provider_payment_id) <= 255),
  expires_at timestamptz not null,
  paid_at timestamptz,
  fulfilled_at timestamptz,
  refunded_at timestamptz,
  refund jsonb check (jsonb_typeof(refund) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status in ('paid', 'fulfilled', 'refunded')) = (paid_at is not null) or status = 'expired')
);
comment on table orders is 'An owner''s order: lines priced with the site''s current prices, VAT by billing country, paid through a provider (Stripe or the test provider). status pending -> paid -> fulfilled, pending -> expired, paid/fulfilled -> refunded.';
create index orders_user on orders (user_id, created_at desc, id desc);
create index orders_pending_expiry on orders (expires_at) where status = 'pending';
create index orders_provider_payment on orders (provider_payment_id) where provider_payment_id is not null;
create index orders_provider_session on orders (provider_session_id) where provider_session_id is not null;

create table order_lines (
  id bigserial primary key,
  order_id bigint not null references orders(id) on delete cascade,
  position int not null check (position between 0 and 19),
  product_code text not null references products(code) on delete restrict,
  listing_id bigint references listings(id) on delete set null,
  week date check (extract(isodow from week) = 1),
  categories text[] not null default '{}' check (cardinality(categories) <= 3),
  options jsonb check (jsonb_typeof(options) = 'object'),
  amount_cents bigint not null check (amount_cents between 0 and 100000000),
  vat_cents bigint not null check (vat_cents >= 0),
  total_cents bigint not null check (total_cents = amount_cents + vat_cents),
  -- pending -> fulfilled (once, by the fulfil_order job) -> reversed (refund); pending -> cancelled (refund before fulfilment)
  fulfilment_status text not null default 'pending' check (fulfilment_status in ('pending', 'fulfilled', 'reversed', 'cancelled')),
  fulfilled_at timestamptz,
  -- {summary, ...details}: what fulfilment did, and what a refund undid or could not undo.
  fulfilment jsonb check (jsonb_typeof(fulfilment) = 'object'),
  reversal jsonb check (jsonb_typeof(reversal) = 'object'),
  unique (order_id, position),
  check ((fulfilment_status in ('fulfilled', 'reversed')) = (fulfilled_at is not null))
);
comment on table order_lines is 'One product of an order, priced when the order was made; fulfilled exactly once (fulfilment says what it did).';
create index order_lines_listing on order_lines (listing_id);

create table payment_events (
  id bigserial primary key,
  provider text not null check (provider in ('test', 'stripe')),
  event_id text not null check (length(event_id) between 1 and 255),
  type text not null check (length(type) <= 100),
  order_id bigint references orders(id) on delete set null,
  amount_cents bigint,
  currency text check (currency ~ '^[A-Z]{3}$'),
  -- The provider's payment (Stripe PaymentIntent): a refund that arrives before its payment waits here.
  payment_id text check (length(payment_id) <= 255),
  -- applied, already_paid, amount_mismatch, unknown_order, refunded_order, refund_waiting, refunded, ignored, ...
  outcome text not null check (outcome ~ '^[a-z_]{1,40}$'),
  received_at timestamptz not null default now(),
  unique (provider, event_id)
);
comment on table payment_events is 'Every payment event received (Stripe webhooks, test-provider payments), once per provider event id: replays and duplicates change nothing twice.';
create index payment_events_order on payment_events (order_id);
create index payment_events_waiting_refund on payment_events (provider, payment_id) where outcome = 'refund_waiting';

create table listing_featured (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  order_line_id bigint unique references order_lines(id) on delete set null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  check (ends_at > starts_at)
);
comment on table listing_featured is 'Paid featured periods: a listing is featured while now() is inside one (public reads and badges show it).';
create index listing_featured_listing on listing_featured (listing_id, ends_at desc);

create table operator_tasks (
  id bigserial primary key,
  kind text not null check (kind ~ '^[a-z_]{1,40}$'),
  order_line_id bigint unique references order_lines(id) on delete set null,
  listing_id bigint references listings(id) on delete set null,
  notes text check (length(notes) <= 2000),
  status text not null default 'open' check (status in ('open', 'done', 'cancelled')),
  created_at timestamptz not null default now(),
  done_at timestamptz,
  done_note text check (length(done_note) <= 2000)
);
comment on table operator_tasks is 'Work for the site team (done_for_you launches): npm run ops -- tasks lists them, tasks done <id> closes one.';

create table listing_ai_reviews (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  order_line_id bigint unique references order_lines(id) on delete set null,
  body text not null check (length(body) <= 20000),
  -- [{quote, url}] words from the product's own website the review is drawn from
  quotes jsonb not null default '[]' check (jsonb_typeof(quotes) = 'array'),
  hidden boolean not null default false,
  created_at timestamptz not null default now()
);
comment on table listing_ai_reviews is 'Paid AI reviews of a listing, drawn from its own website text with quotes; the newest visible one shows on the profile.';
create index listing_ai_reviews_listing on listing_ai_reviews (listing_id, created_at desc);

alter table billboard_contributions
  add column order_line_id bigint unique references order_lines(id) on delete set null;
comment on column billboard_contributions.order_line_id is 'The order line that paid for this contribution (billboard_min); deleted again on refund.';

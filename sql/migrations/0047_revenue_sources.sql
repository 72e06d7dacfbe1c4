-- Revenue a maker reports (set_listing_revenue) or that the worker reads monthly from the maker's
-- restricted Stripe key; exchange rates the site team maintains (ops fx set); the revenue board
-- ranks by the figure converted to USD and says where each figure came from.

create table listing_revenue_sources (
  listing_id bigint primary key references listings(id) on delete cascade,
  company_id bigint not null references companies(id) on delete cascade,
  kind text not null check (kind in ('self_reported', 'stripe')),
  -- AES-256-GCM of the restricted key: iv (12 bytes) || tag (16 bytes) || ciphertext.
  stripe_key_sealed bytea,
  stripe_key_hint text check (length(stripe_key_hint) <= 20),
  last_checked_at timestamptz,
  last_error text check (length(last_error) <= 1000),
  updated_at timestamptz not null default now(),
  check ((kind = 'stripe') = (stripe_key_sealed is not null))
);
comment on table listing_revenue_sources is 'How a listing''s revenue is known: self-reported by its owner, or read monthly from a restricted read-only Stripe key stored encrypted (never shown again; the hint is its last four characters).';

create table fx_rates (
  currency text not null check (currency ~ '^[A-Z]{3}$' and currency <> 'USD'),
  valid_from date not null,
  usd_per_unit numeric(18, 8) not null check (usd_per_unit > 0),
  created_at timestamptz not null default now(),
  primary key (currency, valid_from)
);
comment on table fx_rates is 'Exchange rates the site team maintains (ops fx set): how many USD one unit of the currency was worth from valid_from on. The revenue board converts with the latest valid one.';

drop materialized view mv_board_revenue;
create materialized view mv_board_revenue as
with latest as (
  select distinct on (company_id) company_id, month, mrr_cents, currency, verified
  from revenue_figures order by company_id, month desc
), converted as (
  select la.*, case when la.currency = 'USD' then la.mrr_cents else round(la.mrr_cents * fx.usd_per_unit)::bigint end as mrr_usd_cents
  from latest la
  left join lateral (select f.usd_per_unit from fx_rates f where f.currency = la.currency and f.valid_from <= (now() at time zone 'utc')::date
                     order by f.valid_from desc limit 1) fx on true
)
select l.site_id, l.id as listing_id, c.mrr_cents, c.currency, c.month, c.verified, c.mrr_usd_cents,
       case when c.verified then 'stripe' else 'self_reported' end as source,
       row_number() over (partition by l.site_id order by c.mrr_usd_cents desc nulls last, l.id)::int as rank,
       count(*) over (partition by l.site_id)::int as total
from listings l join converted c on c.company_id = l.company_id
where l.status = 'live';
create unique index mv_board_revenue_pk on mv_board_revenue (listing_id);
create index mv_board_revenue_rank on mv_board_revenue (site_id, rank);
comment on materialized view mv_board_revenue is 'Latest monthly recurring revenue per live listing, ranked by its USD value at the site team''s rates (a currency without a rate ranks last); source says self_reported or stripe (verified).';

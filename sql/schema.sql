create extension if not exists fuzzystrmatch;

create extension if not exists pg_trgm;

create extension if not exists unaccent;

create sequence api_keys_id_seq as bigint start 1 increment 1;

create sequence awards_id_seq as bigint start 1 increment 1;

create sequence billboard_contributions_id_seq as bigint start 1 increment 1;

create sequence blog_posts_id_seq as bigint start 1 increment 1;

create sequence cache_generation as bigint start 1 increment 1;

create sequence categories_id_seq as integer start 1 increment 1;

create sequence claims_id_seq as bigint start 1 increment 1;

create sequence companies_id_seq as bigint start 1 increment 1;

create sequence domain_rating_runs_id_seq as bigint start 1 increment 1;

create sequence draft_invites_id_seq as bigint start 1 increment 1;

create sequence draft_pages_id_seq as bigint start 1 increment 1;

create sequence founders_id_seq as bigint start 1 increment 1;

create sequence interview_questions_id_seq as integer start 1 increment 1;

create sequence listing_ai_reviews_id_seq as bigint start 1 increment 1;

create sequence listing_faqs_id_seq as bigint start 1 increment 1;

create sequence listing_featured_id_seq as bigint start 1 increment 1;

create sequence listing_media_id_seq as bigint start 1 increment 1;

create sequence listing_updates_id_seq as bigint start 1 increment 1;

create sequence listing_versions_id_seq as bigint start 1 increment 1;

create sequence listings_id_seq as bigint start 1 increment 1;

create sequence mail_outbox_id_seq as bigint start 1 increment 1;

create sequence milestones_id_seq as bigint start 1 increment 1;

create sequence oauth_grants_id_seq as bigint start 1 increment 1;

create sequence operator_audit_id_seq as bigint start 1 increment 1;

create sequence operator_tasks_id_seq as bigint start 1 increment 1;

create sequence order_documents_id_seq as bigint start 1 increment 1;

create sequence order_lines_id_seq as bigint start 1 increment 1;

create sequence orders_id_seq as bigint start 1 increment 1;

create sequence ownership_disputes_id_seq as bigint start 1 increment 1;

create sequence ownership_events_id_seq as bigint start 1 increment 1;

create sequence payment_events_id_seq as bigint start 1 increment 1;

create sequence product_prices_id_seq as bigint start 1 increment 1;

create sequence reviews_id_seq as bigint start 1 increment 1;

create sequence search_vocabulary_generation as bigint start 1 increment 1;

create sequence sites_id_seq as integer start 1 increment 1;

create sequence users_id_seq as bigint start 1 increment 1;

create table api_keys (
  id bigint default nextval('api_keys_id_seq'::regclass) not null,
  user_id bigint not null,
  name text not null,
  prefix text not null,
  secret_hash text not null,
  scopes text[] not null,
  created_at timestamp with time zone default now() not null,
  last_used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  constraint api_keys_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100))),
  constraint api_keys_pkey PRIMARY KEY (id),
  constraint api_keys_prefix_check CHECK ((length(prefix) <= 24)),
  constraint api_keys_scopes_check CHECK (((scopes <@ ARRAY['account:read'::text, 'listings:write'::text, 'orders:write'::text]) AND (cardinality(scopes) >= 1))),
  constraint api_keys_secret_hash_key UNIQUE (secret_hash),
  constraint api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table api_keys is 'API keys made on the API keys page or by operators; the secret is shown once and kept only as a hash.';

create table awards (
  id bigint default nextval('awards_id_seq'::regclass) not null,
  site_id integer not null,
  listing_id bigint not null,
  week date not null,
  rank integer not null,
  votes integer not null,
  created_at timestamp with time zone default now() not null,
  constraint awards_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint awards_pkey PRIMARY KEY (id),
  constraint awards_rank_check CHECK (((rank >= 1) AND (rank <= 3))),
  constraint awards_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE CASCADE,
  constraint awards_site_id_week_rank_key UNIQUE (site_id, week, rank),
  constraint awards_votes_check CHECK ((votes >= 0)),
  constraint awards_week_check CHECK ((EXTRACT(isodow FROM week) = (1)::numeric))
);
comment on table awards is 'Launch of the Week #1-#3, decided by community votes cast during the launch week.';

create table billboard_contributions (
  id bigint default nextval('billboard_contributions_id_seq'::regclass) not null,
  listing_id bigint not null,
  user_id bigint,
  amount_cents bigint not null,
  currency text default 'USD'::text not null,
  created_at timestamp with time zone default now() not null,
  order_line_id bigint,
  constraint billboard_contributions_amount_cents_check CHECK (((amount_cents >= 1) AND (amount_cents <= 100000000))),
  constraint billboard_contributions_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint billboard_contributions_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint billboard_contributions_order_line_id_fkey FOREIGN KEY (order_line_id) REFERENCES order_lines(id) ON DELETE SET NULL,
  constraint billboard_contributions_order_line_id_key UNIQUE (order_line_id),
  constraint billboard_contributions_pkey PRIMARY KEY (id),
  constraint billboard_contributions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);
comment on table billboard_contributions is 'Money paid to rank on the billboard; always presented as paid.';
comment on column billboard_contributions.order_line_id is 'The order line that paid for this contribution (billboard_min); deleted again on refund.';

create table blog_posts (
  id bigint default nextval('blog_posts_id_seq'::regclass) not null,
  slug text not null,
  title text not null,
  excerpt text default ''::text not null,
  body_md text not null,
  author text default ''::text not null,
  tags text[] default '{}'::text[] not null,
  faqs jsonb default '[]'::jsonb not null,
  published_at timestamp with time zone default now() not null,
  search tsvector generated always as (((setweight(to_tsvector('english'::regconfig, COALESCE(title, ''::text)), 'A'::"char") || setweight(to_tsvector('english'::regconfig, COALESCE(excerpt, ''::text)), 'B'::"char")) || setweight(to_tsvector('english'::regconfig, COALESCE(body_md, ''::text)), 'C'::"char"))) stored,
  constraint blog_posts_author_check CHECK ((length(author) <= 160)),
  constraint blog_posts_body_md_check CHECK ((length(body_md) <= 200000)),
  constraint blog_posts_excerpt_check CHECK ((length(excerpt) <= 1000)),
  constraint blog_posts_faqs_check CHECK ((jsonb_typeof(faqs) = 'array'::text)),
  constraint blog_posts_pkey PRIMARY KEY (id),
  constraint blog_posts_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'::text)),
  constraint blog_posts_slug_key UNIQUE (slug),
  constraint blog_posts_title_check CHECK ((length(title) <= 300))
);
comment on table blog_posts is 'Editorial posts in Markdown with FAQs.';

create table board_totals (
  site_id integer not null,
  board text not null,
  total integer not null,
  constraint board_totals_pkey PRIMARY KEY (site_id, board)
);
comment on table board_totals is 'Sizes of the boards read straight from listing_stats, as of the last refresh.';

create table categories (
  id integer default nextval('categories_id_seq'::regclass) not null,
  slug text not null,
  name text not null,
  parent_id integer,
  description text default ''::text not null,
  faqs jsonb default '[]'::jsonb not null,
  attributes jsonb default '[]'::jsonb not null,
  "position" integer default 0 not null,
  keywords text[] default '{}'::text[] not null,
  constraint categories_attributes_check CHECK ((jsonb_typeof(attributes) = 'array'::text)),
  constraint categories_check CHECK ((parent_id IS DISTINCT FROM id)),
  constraint categories_description_check CHECK ((length(description) <= 5000)),
  constraint categories_faqs_check CHECK ((jsonb_typeof(faqs) = 'array'::text)),
  constraint categories_keywords_check CHECK (((cardinality(keywords) <= 30) AND (array_position(keywords, NULL::text) IS NULL) AND (length(array_to_string(keywords, ' '::text)) <= 2000))),
  constraint categories_name_check CHECK ((length(name) <= 200)),
  constraint categories_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES categories(id) ON DELETE RESTRICT,
  constraint categories_pkey PRIMARY KEY (id),
  constraint categories_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'::text)),
  constraint categories_slug_key UNIQUE (slug)
);
comment on table categories is 'Two-level category tree; attributes are the [{key,label}] facts compare_listings shows side by side.';
comment on column categories.keywords is 'Lower-case words and short phrases the category goes by (at most 30), matched with its name and description when a draft''s categories are chosen.';

create table category_counts (
  site_id integer not null,
  category_id integer not null,
  listings integer not null,
  direct integer not null,
  constraint category_counts_category_id_fkey FOREIGN KEY (category_id) REFERENCES categories(id) ON DELETE CASCADE,
  constraint category_counts_direct_check CHECK ((direct >= 0)),
  constraint category_counts_listings_check CHECK ((listings >= 0)),
  constraint category_counts_pkey PRIMARY KEY (site_id, category_id)
);
comment on table category_counts is 'Live listings per category (count and direct_count of the category tree), as of the last refresh.';

create table category_members (
  category_id integer not null,
  listing_id bigint not null,
  site_id integer not null,
  direct boolean not null,
  votes integer not null,
  launched_at timestamp with time zone,
  constraint category_members_category_id_fkey FOREIGN KEY (category_id) REFERENCES categories(id) ON DELETE CASCADE,
  constraint category_members_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint category_members_pkey PRIMARY KEY (category_id, listing_id)
);
comment on table category_members is 'Live listings per category page (tagged with it or one of its subcategories), with what orders the page, as of the last refresh.';

create table claims (
  id bigint default nextval('claims_id_seq'::regclass) not null,
  listing_id bigint not null,
  user_id bigint not null,
  method text not null,
  email text,
  token text not null,
  link_hash text,
  status text default 'pending'::text not null,
  failure_reason text,
  failure_detail text,
  checked_at timestamp with time zone,
  verified_at timestamp with time zone,
  expires_at timestamp with time zone not null,
  created_at timestamp with time zone default now() not null,
  constraint claims_check CHECK (((method = 'email'::text) = (email IS NOT NULL))),
  constraint claims_check1 CHECK (((method = 'email'::text) = (link_hash IS NOT NULL))),
  constraint claims_check2 CHECK (((status = 'verified'::text) = (verified_at IS NOT NULL))),
  constraint claims_email_check CHECK ((length(email) <= 254)),
  constraint claims_failure_detail_check CHECK ((length(failure_detail) <= 500)),
  constraint claims_failure_reason_check CHECK ((failure_reason ~ '^[a-z_]{1,60}$'::text)),
  constraint claims_link_hash_check CHECK ((link_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint claims_link_hash_key UNIQUE (link_hash),
  constraint claims_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint claims_method_check CHECK ((method = ANY (ARRAY['dns'::text, 'meta'::text, 'file'::text, 'email'::text]))),
  constraint claims_pkey PRIMARY KEY (id),
  constraint claims_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'verified'::text, 'expired'::text]))),
  constraint claims_token_check CHECK ((token ~ '^[A-Za-z0-9_-]{20,100}$'::text)),
  constraint claims_token_key UNIQUE (token),
  constraint claims_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table claims is 'Claims of a listing by a person: pending until verified (DNS TXT, meta tag, file, or the mailed link) or expired (expires_at). token is what they publish; link_hash the SHA-256 of the mailed link''s secret.';

create table companies (
  id bigint default nextval('companies_id_seq'::regclass) not null,
  name text not null,
  domain text not null,
  website_url text not null,
  created_at timestamp with time zone default now() not null,
  constraint companies_domain_check CHECK ((length(domain) <= 253)),
  constraint companies_name_check CHECK ((length(name) <= 500)),
  constraint companies_pkey PRIMARY KEY (id),
  constraint companies_website_url_check CHECK ((length(website_url) <= 2048))
);
comment on table companies is 'A company behind one or more listings, identified by its web domain.';

create table company_owners (
  company_id bigint not null,
  user_id bigint not null,
  claim_id bigint,
  since timestamp with time zone default now() not null,
  role text default 'owner'::text not null,
  constraint company_owners_claim_id_fkey FOREIGN KEY (claim_id) REFERENCES claims(id) ON DELETE SET NULL,
  constraint company_owners_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id) ON DELETE CASCADE,
  constraint company_owners_pkey PRIMARY KEY (company_id, user_id),
  constraint company_owners_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'co_owner'::text]))),
  constraint company_owners_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table company_owners is 'People who own a company through a verified claim: they own every listing of it on every site.';
comment on column company_owners.role is 'owner: proved control of the domain (DNS, meta tag or file claim); co_owner: added beside a proving owner, or by an e-mail claim. Both may edit; only an owner removes co-owners.';

create table document_counters (
  site_id integer not null,
  kind text not null,
  year integer not null,
  last_number integer not null,
  constraint document_counters_kind_check CHECK ((kind = ANY (ARRAY['invoice'::text, 'credit_note'::text]))),
  constraint document_counters_last_number_check CHECK ((last_number >= 1)),
  constraint document_counters_pkey PRIMARY KEY (site_id, kind, year),
  constraint document_counters_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE CASCADE,
  constraint document_counters_year_check CHECK (((year >= 2000) AND (year <= 9999)))
);
comment on table document_counters is 'The last number issued per seller (site), kind of document and calendar year; advanced only inside the transaction that stores the document, so numbers have no gaps.';

create table domain_rating_runs (
  id bigint default nextval('domain_rating_runs_id_seq'::regclass) not null,
  started_at timestamp with time zone default now() not null,
  finished_at timestamp with time zone,
  domains integer default 0 not null,
  rated integer default 0 not null,
  failed integer default 0 not null,
  last_error text,
  constraint domain_rating_runs_last_error_check CHECK ((length(last_error) <= 2000)),
  constraint domain_rating_runs_pkey PRIMARY KEY (id)
);
comment on table domain_rating_runs is 'Each monthly refresh through the Domain Rating provider: how many domains were asked, rated and failed.';

create table domain_ratings (
  company_id bigint not null,
  measured_on date not null,
  rating integer not null,
  source text default 'import'::text not null,
  constraint domain_ratings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id) ON DELETE CASCADE,
  constraint domain_ratings_pkey PRIMARY KEY (company_id, measured_on),
  constraint domain_ratings_rating_check CHECK (((rating >= 0) AND (rating <= 100))),
  constraint domain_ratings_source_check CHECK ((source = ANY (ARRAY['import'::text, 'provider'::text])))
);
comment on table domain_ratings is 'Domain Rating history of a company''s domain.';
comment on column domain_ratings.source is 'import: from a CSV an operator imported (ops dr import; the demo seed counts as one); provider: from the Domain Rating provider''s monthly refresh.';

create table draft_invites (
  id bigint default nextval('draft_invites_id_seq'::regclass) not null,
  draft_id uuid not null,
  email text not null,
  token_hash text not null,
  invited_by bigint not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone not null,
  accepted_at timestamp with time zone,
  accepted_user_id bigint,
  founder jsonb,
  constraint draft_invites_accepted_user_id_fkey FOREIGN KEY (accepted_user_id) REFERENCES users(id) ON DELETE SET NULL,
  constraint draft_invites_draft_id_fkey FOREIGN KEY (draft_id) REFERENCES drafts(id) ON DELETE CASCADE,
  constraint draft_invites_email_check CHECK (((length(email) >= 3) AND (length(email) <= 254))),
  constraint draft_invites_founder_check CHECK ((jsonb_typeof(founder) = 'object'::text)),
  constraint draft_invites_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES users(id) ON DELETE CASCADE,
  constraint draft_invites_pkey PRIMARY KEY (id),
  constraint draft_invites_token_hash_key UNIQUE (token_hash)
);
comment on table draft_invites is 'Co-founder invites of a draft (at most 10 addresses, checked at the edge): a single-use e-mailed link (token stored as its SHA-256) to add their own founder profile.';

create table draft_pages (
  id bigint default nextval('draft_pages_id_seq'::regclass) not null,
  draft_id uuid not null,
  kind text not null,
  "position" integer not null,
  url text not null,
  status integer not null,
  title text,
  text text not null,
  html text not null,
  fetched_at timestamp with time zone not null,
  constraint draft_pages_draft_id_fkey FOREIGN KEY (draft_id) REFERENCES drafts(id) ON DELETE CASCADE,
  constraint draft_pages_draft_id_kind_position_key UNIQUE (draft_id, kind, "position"),
  constraint draft_pages_html_check CHECK ((length(html) <= 1000000)),
  constraint draft_pages_kind_check CHECK ((kind = ANY (ARRAY['site'::text, 'competitor'::text]))),
  constraint draft_pages_pkey PRIMARY KEY (id),
  constraint draft_pages_position_check CHECK (("position" >= 0)),
  constraint draft_pages_text_check CHECK ((length(text) <= 1000000)),
  constraint draft_pages_title_check CHECK ((length(title) <= 2000)),
  constraint draft_pages_url_check CHECK ((length(url) <= 2048))
);
comment on table draft_pages is 'The stored crawl of a draft (and of its competitor): regenerate and compare redraft from it without fetching again. text is the visible text, the only evidence.';

create table drafts (
  id uuid default gen_random_uuid() not null,
  site_id integer not null,
  user_id bigint not null,
  url text not null,
  domain text not null,
  status text default 'crawling'::text not null,
  failure_reason text,
  failure_detail text,
  fields jsonb default '{}'::jsonb not null,
  faqs jsonb default '{}'::jsonb not null,
  founders jsonb default '{}'::jsonb not null,
  company_socials jsonb default '{}'::jsonb not null,
  founder_socials jsonb default '{}'::jsonb not null,
  story jsonb default '{}'::jsonb not null,
  milestones jsonb default '{}'::jsonb not null,
  seo jsonb default '{}'::jsonb not null,
  competitor_url text,
  comparison jsonb,
  regenerating text[] default '{}'::text[] not null,
  regenerate_error text,
  crawl_skipped jsonb default '[]'::jsonb not null,
  completeness integer default 0 not null,
  missing text[] default '{}'::text[] not null,
  listing_id bigint,
  submitted_at timestamp with time zone,
  drafted_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint drafts_check CHECK (((status = 'failed'::text) = (failure_reason IS NOT NULL))),
  constraint drafts_company_socials_check CHECK ((jsonb_typeof(company_socials) = 'object'::text)),
  constraint drafts_comparison_check CHECK ((jsonb_typeof(comparison) = 'object'::text)),
  constraint drafts_competitor_url_check CHECK (((length(competitor_url) >= 1) AND (length(competitor_url) <= 2048))),
  constraint drafts_completeness_check CHECK (((completeness >= 0) AND (completeness <= 100))),
  constraint drafts_crawl_skipped_check CHECK ((jsonb_typeof(crawl_skipped) = 'array'::text)),
  constraint drafts_domain_check CHECK (((length(domain) >= 1) AND (length(domain) <= 253))),
  constraint drafts_failure_detail_check CHECK ((length(failure_detail) <= 2000)),
  constraint drafts_failure_reason_check CHECK ((failure_reason ~ '^[a-z_]{1,40}$'::text)),
  constraint drafts_faqs_check CHECK (((jsonb_typeof(faqs) = 'object'::text) AND ((jsonb_typeof((faqs -> 'value'::text)) IS DISTINCT FROM 'array'::text) OR (jsonb_array_length((faqs -> 'value'::text)) <= 10)))),
  constraint drafts_fields_check CHECK ((jsonb_typeof(fields) = 'object'::text)),
  constraint drafts_founder_socials_check CHECK ((jsonb_typeof(founder_socials) = 'object'::text)),
  constraint drafts_founders_check CHECK (((jsonb_typeof(founders) = 'object'::text) AND ((jsonb_typeof((founders -> 'value'::text)) IS DISTINCT FROM 'array'::text) OR (jsonb_array_length((founders -> 'value'::text)) <= 6)))),
  constraint drafts_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE SET NULL,
  constraint drafts_listing_id_key UNIQUE (listing_id),
  constraint drafts_milestones_check CHECK (((jsonb_typeof(milestones) = 'object'::text) AND ((jsonb_typeof((milestones -> 'value'::text)) IS DISTINCT FROM 'array'::text) OR (jsonb_array_length((milestones -> 'value'::text)) <= 50)))),
  constraint drafts_pkey PRIMARY KEY (id),
  constraint drafts_regenerate_error_check CHECK ((length(regenerate_error) <= 2000)),
  constraint drafts_regenerating_check CHECK ((cardinality(regenerating) <= 30)),
  constraint drafts_seo_check CHECK (((jsonb_typeof(seo) = 'object'::text) AND (COALESCE(length((seo ->> 'title'::text)), 0) <= 70) AND (COALESCE(length((seo ->> 'meta'::text)), 0) <= 170))),
  constraint drafts_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE CASCADE,
  constraint drafts_status_check CHECK ((status = ANY (ARRAY['crawling'::text, 'drafting'::text, 'ready'::text, 'failed'::text]))),
  constraint drafts_story_check CHECK ((jsonb_typeof(story) = 'object'::text)),
  constraint drafts_url_check CHECK ((((length(url) >= 1) AND (length(url) <= 2048)) AND (url ~ '^https?://'::text))),
  constraint drafts_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table drafts is 'Submissions by URL: crawled, AI-drafted with evidence, edited by the owner, turned into a listing by submit_draft. status failed extends the spec''s crawling/drafting/ready so nothing stays in progress forever.';
comment on column drafts.fields is 'Profile fields: name -> {value, state (ai, not_found, edited, manual, override, deleted), evidence [{quote, url}], ai {value, evidence} | null}.';
comment on column drafts.listing_id is 'The listing submit_draft made; later update_draft calls update it too.';

create table follows (
  listing_id bigint not null,
  user_id bigint not null,
  created_at timestamp with time zone default now() not null,
  unsubscribed_at timestamp with time zone,
  constraint follows_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint follows_pkey PRIMARY KEY (listing_id, user_id),
  constraint follows_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table follows is 'People following a listing''s updates.';
comment on column follows.unsubscribed_at is 'Set by the unsubscribe link in an update mail: the person still follows but gets no more update mail.';

create table founder_stories (
  listing_id bigint not null,
  title text,
  story text,
  why_started text,
  problem text,
  journey text,
  challenges text,
  achievements text,
  lessons text,
  whats_next text,
  updated_at timestamp with time zone default now() not null,
  constraint founder_stories_achievements_check CHECK ((length(achievements) <= 8000)),
  constraint founder_stories_challenges_check CHECK ((length(challenges) <= 8000)),
  constraint founder_stories_journey_check CHECK ((length(journey) <= 8000)),
  constraint founder_stories_lessons_check CHECK ((length(lessons) <= 8000)),
  constraint founder_stories_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint founder_stories_pkey PRIMARY KEY (listing_id),
  constraint founder_stories_problem_check CHECK ((length(problem) <= 8000)),
  constraint founder_stories_story_check CHECK ((length(story) <= 8000)),
  constraint founder_stories_title_check CHECK ((length(title) <= 200)),
  constraint founder_stories_whats_next_check CHECK ((length(whats_next) <= 8000)),
  constraint founder_stories_why_started_check CHECK ((length(why_started) <= 8000))
);
comment on table founder_stories is 'The founder story of a listing, published with it when the story section is unlocked.';

create table founders (
  id bigint default nextval('founders_id_seq'::regclass) not null,
  slug text not null,
  user_id bigint,
  name text not null,
  title text,
  bio text,
  country text,
  avatar_url text,
  socials jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint founders_avatar_url_check CHECK ((length(avatar_url) <= 500)),
  constraint founders_bio_check CHECK ((length(bio) <= 3000)),
  constraint founders_country_check CHECK ((country ~ '^[A-Z]{2}$'::text)),
  constraint founders_name_check CHECK (((length(name) >= 1) AND (length(name) <= 160))),
  constraint founders_pkey PRIMARY KEY (id),
  constraint founders_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'::text)),
  constraint founders_slug_key UNIQUE (slug),
  constraint founders_socials_check CHECK ((jsonb_typeof(socials) = 'object'::text)),
  constraint founders_title_check CHECK ((length(title) <= 160)),
  constraint founders_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);
comment on table founders is 'People who founded listed companies; public profile pages.';

create table fx_rates (
  currency text not null,
  valid_from date not null,
  usd_per_unit numeric(18,8) not null,
  created_at timestamp with time zone default now() not null,
  constraint fx_rates_currency_check CHECK (((currency ~ '^[A-Z]{3}$'::text) AND (currency <> 'USD'::text))),
  constraint fx_rates_pkey PRIMARY KEY (currency, valid_from),
  constraint fx_rates_usd_per_unit_check CHECK ((usd_per_unit > (0)::numeric))
);
comment on table fx_rates is 'Exchange rates the site team maintains (ops fx set): how many USD one unit of the currency was worth from valid_from on. The revenue board converts with the latest valid one.';

create table idempotency_keys (
  user_id bigint not null,
  operation text not null,
  key text not null,
  request_hash text not null,
  state text default 'in_flight'::text not null,
  response_status integer,
  response_body text,
  created_at timestamp with time zone default now() not null,
  locked_until timestamp with time zone not null,
  expires_at timestamp with time zone not null,
  constraint idempotency_keys_key_check CHECK (((length(key) >= 1) AND (length(key) <= 255))),
  constraint idempotency_keys_pkey PRIMARY KEY (user_id, operation, key),
  constraint idempotency_keys_state_check CHECK ((state = ANY (ARRAY['in_flight'::text, 'done'::text]))),
  constraint idempotency_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table idempotency_keys is 'Idempotency-Key records per account and operation: the stored response replays for the same key and body.';

create table interview_answers (
  user_id bigint not null,
  question_id integer not null,
  answer text not null,
  updated_at timestamp with time zone default now() not null,
  constraint interview_answers_answer_check CHECK (((length(answer) >= 1) AND (length(answer) <= 4000))),
  constraint interview_answers_pkey PRIMARY KEY (user_id, question_id),
  constraint interview_answers_question_id_fkey FOREIGN KEY (question_id) REFERENCES interview_questions(id) ON DELETE RESTRICT,
  constraint interview_answers_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table interview_answers is 'A person''s answers to the founder interview.';

create table interview_questions (
  id integer default nextval('interview_questions_id_seq'::regclass) not null,
  "position" integer default 0 not null,
  question text not null,
  active boolean default true not null,
  constraint interview_questions_pkey PRIMARY KEY (id),
  constraint interview_questions_question_check CHECK (((length(question) >= 1) AND (length(question) <= 500)))
);
comment on table interview_questions is 'Founder interview questions owners may answer.';

create table job_dead_letters (
  id bigint generated always as identity not null,
  job_id bigint not null,
  task text not null,
  payload jsonb,
  error text not null,
  attempts integer not null,
  failed_at timestamp with time zone default now() not null,
  constraint job_dead_letters_attempts_check CHECK ((attempts >= 1)),
  constraint job_dead_letters_error_check CHECK ((length(error) <= 2000)),
  constraint job_dead_letters_job_id_key UNIQUE (job_id),
  constraint job_dead_letters_pkey PRIMARY KEY (id),
  constraint job_dead_letters_task_check CHECK ((length(task) <= 200))
);
comment on table job_dead_letters is 'Jobs set aside without retries because their payload did not match the job (wrong field, unknown field, another version): the task, the payload as queued and why it was refused. job_id is graphile-worker''s id of the completed job (unique: a redelivered job is recorded once).';

create table listing_ai_reviews (
  id bigint default nextval('listing_ai_reviews_id_seq'::regclass) not null,
  listing_id bigint not null,
  order_line_id bigint,
  body text not null,
  quotes jsonb default '[]'::jsonb not null,
  hidden boolean default false not null,
  created_at timestamp with time zone default now() not null,
  constraint listing_ai_reviews_body_check CHECK ((length(body) <= 20000)),
  constraint listing_ai_reviews_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_ai_reviews_order_line_id_fkey FOREIGN KEY (order_line_id) REFERENCES order_lines(id) ON DELETE SET NULL,
  constraint listing_ai_reviews_order_line_id_key UNIQUE (order_line_id),
  constraint listing_ai_reviews_pkey PRIMARY KEY (id),
  constraint listing_ai_reviews_quotes_check CHECK ((jsonb_typeof(quotes) = 'array'::text))
);
comment on table listing_ai_reviews is 'Paid AI reviews of a listing, drawn from its own website text with quotes; the newest visible one shows on the profile.';

create table listing_alternatives (
  listing_id bigint not null,
  alternative_id bigint not null,
  approved boolean default false not null,
  created_at timestamp with time zone default now() not null,
  constraint listing_alternatives_alternative_id_fkey FOREIGN KEY (alternative_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_alternatives_check CHECK ((listing_id <> alternative_id)),
  constraint listing_alternatives_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_alternatives_pkey PRIMARY KEY (listing_id, alternative_id)
);
comment on table listing_alternatives is 'Alternatives an owner named for their listing; approved ones are listed first.';

create table listing_badge_impressions (
  listing_id bigint not null,
  day date not null,
  host text not null,
  impressions integer default 0 not null,
  constraint listing_badge_impressions_host_check CHECK ((length(host) <= 253)),
  constraint listing_badge_impressions_impressions_check CHECK ((impressions >= 0)),
  constraint listing_badge_impressions_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_badge_impressions_pkey PRIMARY KEY (listing_id, day, host)
);
comment on table listing_badge_impressions is 'Badge images served per listing, UTC day and referring host (the Referer''s host name; "(direct)" without one).';

create table listing_categories (
  listing_id bigint not null,
  category_id integer not null,
  is_primary boolean default false not null,
  constraint listing_categories_category_id_fkey FOREIGN KEY (category_id) REFERENCES categories(id) ON DELETE RESTRICT,
  constraint listing_categories_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_categories_pkey PRIMARY KEY (listing_id, category_id)
);
comment on table listing_categories is 'Primary category plus up to 3 extra ones (extras need a paid plan).';

create table listing_click_visitors (
  listing_id bigint not null,
  day date not null,
  visitor bytea not null,
  constraint listing_click_visitors_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_click_visitors_pkey PRIMARY KEY (listing_id, day, visitor),
  constraint listing_click_visitors_visitor_check CHECK ((octet_length(visitor) = 32))
);
comment on table listing_click_visitors is 'Who already clicked today: sha256 of the day''s salt, the client address and user agent, never the address itself; rows older than two days are deleted.';

create table listing_clicks (
  listing_id bigint not null,
  day date not null,
  clicks integer default 0 not null,
  constraint listing_clicks_clicks_check CHECK ((clicks >= 0)),
  constraint listing_clicks_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_clicks_pkey PRIMARY KEY (listing_id, day)
);
comment on table listing_clicks is 'Visits of a listing''s website through {site_url}/go/{slug}, counting each visitor once per listing and UTC day.';

create table listing_count_deltas (
  site_id integer not null,
  status text not null,
  delta integer not null
);
comment on table listing_count_deltas is 'Listings that entered (+) or left (-) a site and status since the last refresh.';

create table listing_counts (
  site_id integer not null,
  status text not null,
  listings integer not null,
  constraint listing_counts_listings_check CHECK ((listings >= 0)),
  constraint listing_counts_pkey PRIMARY KEY (site_id, status)
);
comment on table listing_counts is 'Listings per site and status as of the last refresh: totals of paged lists.';

create table listing_documents (
  listing_id bigint not null,
  version bigint default 0 not null,
  body json,
  constraint listing_documents_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_documents_pkey PRIMARY KEY (listing_id)
);
comment on table listing_documents is 'Each listing''s public profile as built by listing_document(), or null when stale; version changes on every write the profile reads (migration 0021).';

create table listing_domain_rating (
  listing_id bigint not null,
  site_id integer not null,
  live boolean not null,
  rating integer not null,
  measured_on date not null,
  trend integer,
  constraint listing_domain_rating_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_domain_rating_pkey PRIMARY KEY (listing_id)
);
comment on table listing_domain_rating is 'Latest Domain Rating of each listing''s company and its change over about four weeks, as of the last refresh.';

create table listing_facet_count_deltas (
  site_id integer not null,
  facet text not null,
  value text not null,
  delta integer not null
);
comment on table listing_facet_count_deltas is 'Live listings that entered (+) or left (-) a site, facet and value since the last refresh.';

create table listing_facet_counts (
  site_id integer not null,
  facet text not null,
  value text not null,
  listings integer not null,
  constraint listing_facet_counts_facet_check CHECK ((facet = ANY (ARRAY['stage'::text, 'country'::text, 'pricing'::text]))),
  constraint listing_facet_counts_listings_check CHECK ((listings >= 0)),
  constraint listing_facet_counts_pkey PRIMARY KEY (site_id, facet, value)
);
comment on table listing_facet_counts is 'Live listings per site and stage, country or pricing model (lower(pricing_model)) as of the last refresh; listing_facet_count_deltas holds the moves since.';

create table listing_faqs (
  id bigint default nextval('listing_faqs_id_seq'::regclass) not null,
  listing_id bigint not null,
  "position" integer default 0 not null,
  question text not null,
  answer text not null,
  constraint listing_faqs_answer_check CHECK (((length(answer) >= 1) AND (length(answer) <= 1500))),
  constraint listing_faqs_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_faqs_pkey PRIMARY KEY (id),
  constraint listing_faqs_question_check CHECK (((length(question) >= 1) AND (length(question) <= 300)))
);
comment on table listing_faqs is 'FAQs on a listing profile, at most 10 (checked at the edge).';

create table listing_featured (
  id bigint default nextval('listing_featured_id_seq'::regclass) not null,
  listing_id bigint not null,
  order_line_id bigint,
  starts_at timestamp with time zone not null,
  ends_at timestamp with time zone not null,
  constraint listing_featured_check CHECK ((ends_at > starts_at)),
  constraint listing_featured_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_featured_order_line_id_fkey FOREIGN KEY (order_line_id) REFERENCES order_lines(id) ON DELETE SET NULL,
  constraint listing_featured_order_line_id_key UNIQUE (order_line_id),
  constraint listing_featured_pkey PRIMARY KEY (id)
);
comment on table listing_featured is 'Paid featured periods: a listing is featured while now() is inside one (public reads and badges show it).';

create table listing_findings (
  listing_id bigint not null,
  field text not null,
  kind text not null,
  value jsonb not null,
  evidence jsonb default '[]'::jsonb not null,
  batch_id uuid,
  found_at timestamp with time zone default now() not null,
  constraint listing_findings_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES recrawl_batches(id) ON DELETE SET NULL,
  constraint listing_findings_evidence_check CHECK ((jsonb_typeof(evidence) = 'array'::text)),
  constraint listing_findings_field_check CHECK ((field ~ '^[a-z_]{1,40}$'::text)),
  constraint listing_findings_kind_check CHECK ((kind = ANY (ARRAY['proposed'::text, 'vanished'::text, 'refreshed'::text]))),
  constraint listing_findings_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_findings_pkey PRIMARY KEY (listing_id, field, kind)
);
comment on table listing_findings is 'What the last re-crawl of a listing found per field: refreshed (an AI value it wrote, with its quotes), proposed (a new value for a field the owner edited, locked or wrote; the owner accepts it by sending it with update_my_listing) and vanished (a value the site no longer states; kept on the listing, flagged).';

create table listing_founders (
  listing_id bigint not null,
  founder_id bigint not null,
  role text,
  "position" integer default 0 not null,
  constraint listing_founders_founder_id_fkey FOREIGN KEY (founder_id) REFERENCES founders(id) ON DELETE CASCADE,
  constraint listing_founders_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_founders_pkey PRIMARY KEY (listing_id, founder_id),
  constraint listing_founders_role_check CHECK ((length(role) <= 160))
);
comment on table listing_founders is 'Founders of the company behind a listing; position 0 is the primary founder.';

create table listing_holds (
  listing_id bigint not null,
  previous_status text not null,
  previous_status_reason text,
  previous_status_detail text,
  reason text not null,
  actor text not null,
  held_at timestamp with time zone default now() not null,
  constraint listing_holds_actor_check CHECK (((length(actor) >= 1) AND (length(actor) <= 200))),
  constraint listing_holds_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_holds_pkey PRIMARY KEY (listing_id),
  constraint listing_holds_reason_check CHECK (((length(reason) >= 1) AND (length(reason) <= 500)))
);
comment on table listing_holds is 'Listings the site team hid (status hidden, status_reason hidden_by_site_team, status_detail the reason their owner sees in get_my_listing) with the status ops listings restore puts back.';

create table listing_logo_images (
  listing_id bigint not null,
  size integer not null,
  png bytea not null,
  etag text not null,
  constraint listing_logo_images_etag_check CHECK ((length(etag) <= 64)),
  constraint listing_logo_images_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listing_logos(listing_id) ON DELETE CASCADE,
  constraint listing_logo_images_pkey PRIMARY KEY (listing_id, size),
  constraint listing_logo_images_png_check CHECK ((octet_length(png) <= 500000)),
  constraint listing_logo_images_size_check CHECK ((size = ANY (ARRAY[64, 128, 256])))
);
comment on table listing_logo_images is 'A listing''s logo as square PNGs of the sizes the pages use (the original, SVG included, is never served).';

create table listing_logos (
  listing_id bigint not null,
  source_url text not null,
  status text not null,
  error text,
  fetched_at timestamp with time zone default now() not null,
  constraint listing_logos_error_check CHECK ((length(error) <= 500)),
  constraint listing_logos_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_logos_pkey PRIMARY KEY (listing_id),
  constraint listing_logos_source_url_check CHECK ((length(source_url) <= 500)),
  constraint listing_logos_status_check CHECK ((status = ANY (ARRAY['ok'::text, 'failed'::text])))
);
comment on table listing_logos is 'The last fetch of a listing''s logo_url: ok with its sizes in listing_logo_images, or failed and why (the pages then show an initials tile). A listing whose logo_url differs from source_url is due a fetch.';

create table listing_media (
  id bigint default nextval('listing_media_id_seq'::regclass) not null,
  listing_id bigint not null,
  "position" integer default 0 not null,
  kind text not null,
  url text not null,
  caption text,
  constraint listing_media_caption_check CHECK ((length(caption) <= 300)),
  constraint listing_media_kind_check CHECK ((kind = ANY (ARRAY['image'::text, 'video'::text]))),
  constraint listing_media_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_media_pkey PRIMARY KEY (id),
  constraint listing_media_url_check CHECK ((length(url) <= 500))
);
comment on table listing_media is 'Screenshots and videos; shown only when media is unlocked.';

create table listing_reads (
  listing_id bigint not null,
  day date not null,
  surface text not null,
  reads integer default 0 not null,
  constraint listing_reads_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_reads_pkey PRIMARY KEY (listing_id, day, surface),
  constraint listing_reads_reads_check CHECK ((reads >= 0)),
  constraint listing_reads_surface_check CHECK ((surface = ANY (ARRAY['api'::text, 'mcp'::text])))
);
comment on table listing_reads is 'Reads of a listing''s profile by REST API and MCP clients per UTC day.';

create table listing_revenue_sources (
  listing_id bigint not null,
  company_id bigint not null,
  kind text not null,
  stripe_key_sealed bytea,
  stripe_key_hint text,
  last_checked_at timestamp with time zone,
  last_error text,
  updated_at timestamp with time zone default now() not null,
  constraint listing_revenue_sources_check CHECK (((kind = 'stripe'::text) = (stripe_key_sealed IS NOT NULL))),
  constraint listing_revenue_sources_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id) ON DELETE CASCADE,
  constraint listing_revenue_sources_kind_check CHECK ((kind = ANY (ARRAY['self_reported'::text, 'stripe'::text]))),
  constraint listing_revenue_sources_last_error_check CHECK ((length(last_error) <= 1000)),
  constraint listing_revenue_sources_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_revenue_sources_pkey PRIMARY KEY (listing_id),
  constraint listing_revenue_sources_stripe_key_hint_check CHECK ((length(stripe_key_hint) <= 20))
);
comment on table listing_revenue_sources is 'How a listing''s revenue is known: self-reported by its owner, or read monthly from a restricted read-only Stripe key stored encrypted (never shown again; the hint is its last four characters).';

create table listing_share_images (
  listing_id bigint not null,
  fingerprint text not null,
  png bytea not null,
  rendered_at timestamp with time zone default now() not null,
  constraint listing_share_images_fingerprint_check CHECK ((length(fingerprint) <= 64)),
  constraint listing_share_images_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_share_images_pkey PRIMARY KEY (listing_id),
  constraint listing_share_images_png_check CHECK ((octet_length(png) <= 2000000))
);
comment on table listing_share_images is 'The 1200x630 share image (og:image) of a listing as last rendered; fingerprint is a hash of what it shows (name, tagline, logo, votes, launch week), so a change renders it again.';

create table listing_socials (
  listing_id bigint not null,
  platform text not null,
  url text not null,
  constraint listing_socials_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_socials_pkey PRIMARY KEY (listing_id, platform),
  constraint listing_socials_platform_check CHECK ((platform ~ '^[a-z]{1,40}$'::text)),
  constraint listing_socials_url_check CHECK ((length(url) <= 500))
);
comment on table listing_socials is 'Company social links by platform (linkedin, x, github, ...).';

create table listing_stats (
  listing_id bigint not null,
  site_id integer not null,
  live boolean not null,
  launch_week date,
  launched_at timestamp with time zone,
  votes integer not null,
  week_votes integer not null,
  trend_log double precision not null,
  follows integer not null,
  views bigint not null,
  rating_avg double precision,
  rating_count integer not null,
  primary_category_id integer,
  constraint listing_stats_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_stats_pkey PRIMARY KEY (listing_id)
);
comment on table listing_stats is 'Votes, trending, follows, views and the genuine community rating per listing, as of the last refresh.';
comment on column listing_stats.primary_category_id is 'The listing''s primary category as listings holds it now (not as of the last refresh): set on insert, and by listings'' own trigger when it changes.';

create table listing_stats_dirty (
  listing_id bigint not null
);
comment on table listing_stats_dirty is 'Listings whose counters or ranking inputs changed since the last refresh (repeats allowed).';

create table listing_updates (
  id bigint default nextval('listing_updates_id_seq'::regclass) not null,
  listing_id bigint not null,
  title text not null,
  body text not null,
  created_at timestamp with time zone default now() not null,
  user_id bigint,
  constraint listing_updates_body_check CHECK (((length(body) >= 1) AND (length(body) <= 5000))),
  constraint listing_updates_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_updates_pkey PRIMARY KEY (id),
  constraint listing_updates_title_check CHECK (((length(title) >= 1) AND (length(title) <= 200))),
  constraint listing_updates_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);
comment on table listing_updates is 'What''s new posts by the owner; followers are told.';
comment on column listing_updates.user_id is 'The owner who posted the update (null for seeded ones or deleted accounts).';

create table listing_versions (
  id bigint default nextval('listing_versions_id_seq'::regclass) not null,
  listing_id bigint not null,
  site_id integer not null,
  user_id bigint,
  credential text not null,
  operation text not null,
  before jsonb not null,
  after jsonb not null,
  created_at timestamp with time zone default now() not null,
  constraint listing_versions_after_check CHECK ((jsonb_typeof(after) = 'object'::text)),
  constraint listing_versions_before_check CHECK ((jsonb_typeof(before) = 'object'::text)),
  constraint listing_versions_credential_check CHECK ((credential ~ '^(key|grant|session):[0-9]{1,19}$'::text)),
  constraint listing_versions_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_versions_operation_check CHECK ((operation ~ '^[a-z_]{1,60}$'::text)),
  constraint listing_versions_pkey PRIMARY KEY (id),
  constraint listing_versions_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE CASCADE,
  constraint listing_versions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);
comment on table listing_versions is 'Every owner edit of a listing: the changed parts before and after, who made it, with which credential (key:<api key id> or grant:<OAuth grant id>) and when. One row per listing touched (apply_to writes one per other site).';
comment on column listing_versions.credential is 'The credential the edit was made with: key:<api key id>, grant:<oauth grant id>, or session:<user id> for the site''s own pages.';

create table listing_view_visitors (
  listing_id bigint not null,
  day date not null,
  visitor bytea not null,
  constraint listing_view_visitors_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_view_visitors_pkey PRIMARY KEY (listing_id, day, visitor)
);
comment on table listing_view_visitors is 'Which hashed visitors already counted a view of a listing today; rows of past days are deleted by record_listing_view.';

create table listing_views (
  listing_id bigint not null,
  day date not null,
  views integer default 0 not null,
  constraint listing_views_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint listing_views_pkey PRIMARY KEY (listing_id, day),
  constraint listing_views_views_check CHECK ((views >= 0))
);
comment on table listing_views is 'Profile views per listing per UTC day.';

create table listings (
  id bigint default nextval('listings_id_seq'::regclass) not null,
  site_id integer not null,
  company_id bigint not null,
  owner_user_id bigint,
  slug text not null,
  name text not null,
  url text not null,
  domain text not null,
  logo_url text,
  tagline text,
  short_description text,
  description text,
  headline text,
  summary text,
  seo_title text,
  seo_description text,
  stage text,
  pricing_model text,
  pricing_summary text,
  country text,
  city text,
  founded_year integer,
  demo_video_url text,
  contact_email text,
  features text[] default '{}'::text[] not null,
  usps text[] default '{}'::text[] not null,
  keywords text[] default '{}'::text[] not null,
  attributes jsonb default '{}'::jsonb not null,
  status text default 'draft'::text not null,
  plan text default 'free'::text not null,
  launch_week date,
  launched_at timestamp with time zone,
  primary_category_id integer,
  unlocked_sections text[] default '{}'::text[] not null,
  not_found_on_website text[] default '{}'::text[] not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  search tsvector generated always as ((((setweight(to_tsvector('simple'::regconfig, COALESCE(name, ''::text)), 'A'::"char") || setweight(to_tsvector('english'::regconfig, COALESCE(tagline, ''::text)), 'B'::"char")) || setweight(to_tsvector('english'::regconfig, words_of(keywords)), 'B'::"char")) || setweight(to_tsvector('english'::regconfig, COALESCE(description, ''::text)), 'C'::"char"))) stored,
  search_rank tsvector generated always as (((setweight(to_tsvector('simple'::regconfig, COALESCE(name, ''::text)), 'A'::"char") || setweight(to_tsvector('english'::regconfig, COALESCE(tagline, ''::text)), 'B'::"char")) || setweight(to_tsvector('english'::regconfig, words_of(keywords)), 'B'::"char"))) stored,
  status_reason text,
  status_detail text,
  status_changed_at timestamp with time zone,
  free_queued_at timestamp with time zone,
  badge_checked_at timestamp with time zone,
  badge_seen_at timestamp with time zone,
  last_crawled_at timestamp with time zone,
  constraint listings_attributes_check CHECK ((jsonb_typeof(attributes) = 'object'::text)),
  constraint listings_city_check CHECK ((length(city) <= 120)),
  constraint listings_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id) ON DELETE RESTRICT,
  constraint listings_contact_email_check CHECK ((length(contact_email) <= 254)),
  constraint listings_country_check CHECK ((country ~ '^[A-Z]{2}$'::text)),
  constraint listings_demo_video_url_check CHECK ((length(demo_video_url) <= 500)),
  constraint listings_description_check CHECK ((length(description) <= 20000)),
  constraint listings_domain_check CHECK ((length(domain) <= 253)),
  constraint listings_features_check CHECK ((cardinality(features) <= 20)),
  constraint listings_founded_year_check CHECK (((founded_year >= 1800) AND (founded_year <= 2100))),
  constraint listings_headline_check CHECK ((length(headline) <= 200)),
  constraint listings_keywords_check CHECK ((cardinality(keywords) <= 20)),
  constraint listings_launch_week_check CHECK ((EXTRACT(isodow FROM launch_week) = (1)::numeric)),
  constraint listings_logo_url_check CHECK ((length(logo_url) <= 500)),
  constraint listings_name_check CHECK ((length(name) <= 500)),
  constraint listings_owner_user_id_fkey FOREIGN KEY (owner_user_id) REFERENCES users(id) ON DELETE SET NULL,
  constraint listings_pkey PRIMARY KEY (id),
  constraint listings_plan_check CHECK ((plan = ANY (ARRAY['free'::text, 'paid'::text]))),
  constraint listings_pricing_model_check CHECK ((length(pricing_model) <= 40)),
  constraint listings_pricing_summary_check CHECK ((length(pricing_summary) <= 300)),
  constraint listings_primary_category_id_fkey FOREIGN KEY (primary_category_id) REFERENCES categories(id) ON DELETE RESTRICT,
  constraint listings_seo_description_check CHECK ((length(seo_description) <= 320)),
  constraint listings_seo_title_check CHECK ((length(seo_title) <= 200)),
  constraint listings_short_description_check CHECK ((length(short_description) <= 300)),
  constraint listings_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE RESTRICT,
  constraint listings_site_id_slug_key UNIQUE (site_id, slug),
  constraint listings_slug_check CHECK ((slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'::text)),
  constraint listings_stage_check CHECK ((stage ~ '^[a-z0-9][a-z0-9-]{0,219}$'::text)),
  constraint listings_status_check CHECK ((status ~ '^[a-z_]{1,40}$'::text)),
  constraint listings_status_detail_check CHECK ((length(status_detail) <= 500)),
  constraint listings_status_reason_check CHECK ((status_reason ~ '^[a-z_]{1,60}$'::text)),
  constraint listings_summary_check CHECK ((length(summary) <= 20000)),
  constraint listings_tagline_check CHECK ((length(tagline) <= 200)),
  constraint listings_unlocked_sections_check CHECK ((unlocked_sections <@ ARRAY['story'::text, 'milestones'::text, 'media'::text])),
  constraint listings_url_check CHECK ((length(url) <= 2048)),
  constraint listings_usps_check CHECK ((cardinality(usps) <= 20))
);
comment on table listings is 'A company''s listing on one site. status: draft, awaiting_badge, scheduled, live (open-ended). unlocked_sections: paid sections shown publicly.';
comment on column listings.attributes is 'Values of the category attributes, keyed by attribute key, for compare_listings.';
comment on column listings.badge_checked_at is 'Last badge check of the homepage (free listings awaiting_badge or scheduled).';
comment on column listings.badge_seen_at is 'Last time that check found our badge.';
comment on column listings.free_queued_at is 'When choose_free_listing queued this listing for a free launch week.';
comment on column listings.last_crawled_at is 'When an operator re-crawl last read the listing''s website (null: never re-crawled).';
comment on column listings.not_found_on_website is 'Profile facts the company''s own website did not state; left blank rather than invented.';
comment on column listings.status_reason is 'Why the listing is in its status (badge_not_found, site_unreachable, badge_removed, badge_missing_at_launch, ...); null when nothing is wrong.';

create table login_links (
  token_hash text not null,
  email text not null,
  return_to text default '/account'::text not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone not null,
  used_at timestamp with time zone,
  constraint login_links_email_check CHECK ((length(email) <= 254)),
  constraint login_links_pkey PRIMARY KEY (token_hash),
  constraint login_links_return_to_check CHECK ((length(return_to) <= 2048))
);
comment on table login_links is 'Single-use, expiring e-mailed sign-in links (token stored as its hash).';

create table mail_outbox (
  id bigint default nextval('mail_outbox_id_seq'::regclass) not null,
  to_address text not null,
  subject text not null,
  body_text text not null,
  body_html text,
  kind text not null,
  created_at timestamp with time zone default now() not null,
  sent_at timestamp with time zone,
  attempts integer default 0 not null,
  last_error text,
  document_id bigint,
  constraint mail_outbox_document_id_fkey FOREIGN KEY (document_id) REFERENCES order_documents(id) ON DELETE RESTRICT,
  constraint mail_outbox_kind_check CHECK ((length(kind) <= 40)),
  constraint mail_outbox_pkey PRIMARY KEY (id),
  constraint mail_outbox_subject_check CHECK ((length(subject) <= 300)),
  constraint mail_outbox_to_address_check CHECK ((length(to_address) <= 254))
);
comment on table mail_outbox is 'Every mail the service sends; the send_mail job delivers it by SMTP when SMTP_URL is set, otherwise it stays here for operators (npm run ops -- outbox).';
comment on column mail_outbox.document_id is 'A document sent with the mail as a PDF attachment.';

create table milestones (
  id bigint default nextval('milestones_id_seq'::regclass) not null,
  listing_id bigint not null,
  date date not null,
  title text not null,
  description text,
  url text,
  constraint milestones_description_check CHECK ((length(description) <= 2000)),
  constraint milestones_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint milestones_pkey PRIMARY KEY (id),
  constraint milestones_title_check CHECK (((length(title) >= 1) AND (length(title) <= 200))),
  constraint milestones_url_check CHECK (((length(url) <= 500) AND (url ~ '^https://'::text)))
);
comment on table milestones is 'Company milestones; public when the milestones section is unlocked.';

create table oauth_clients (
  client_id text not null,
  kind text not null,
  client_name text,
  client_uri text,
  redirect_uris text[] not null,
  token_endpoint_auth_method text default 'none'::text not null,
  client_secret_hash text,
  metadata jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  fetched_at timestamp with time zone,
  expires_at timestamp with time zone,
  registered_from text,
  constraint oauth_clients_client_id_check CHECK ((length(client_id) <= 2048)),
  constraint oauth_clients_client_name_check CHECK ((length(client_name) <= 200)),
  constraint oauth_clients_client_uri_check CHECK ((length(client_uri) <= 2048)),
  constraint oauth_clients_kind_check CHECK ((kind = ANY (ARRAY['registered'::text, 'metadata_document'::text]))),
  constraint oauth_clients_pkey PRIMARY KEY (client_id),
  constraint oauth_clients_redirect_uris_check CHECK (((cardinality(redirect_uris) >= 1) AND (cardinality(redirect_uris) <= 20))),
  constraint oauth_clients_registered_from_check CHECK ((length(registered_from) <= 64))
);
comment on table oauth_clients is 'OAuth clients: dynamically registered ones and cached client ID metadata documents.';
comment on column oauth_clients.expires_at is 'Client ID metadata documents: when the cached copy must be fetched again. Null for registered clients.';
comment on column oauth_clients.metadata is 'The validated client metadata beyond the columns (RFC 7591 names): scope (null: any of ours), grant_types, response_types, software_id, software_version.';
comment on column oauth_clients.registered_from is 'The client address a dynamic registration came from (RFC 7591 clients only), for the per-address registration cap.';

create table oauth_codes (
  code_hash text not null,
  grant_id bigint not null,
  redirect_uri text not null,
  code_challenge text not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone not null,
  used_at timestamp with time zone,
  redirect_uri_given boolean default true not null,
  constraint oauth_codes_grant_id_fkey FOREIGN KEY (grant_id) REFERENCES oauth_grants(id) ON DELETE CASCADE,
  constraint oauth_codes_pkey PRIMARY KEY (code_hash)
);
comment on table oauth_codes is 'Single-use, short-lived authorization codes (PKCE S256 challenge kept for the token request).';
comment on column oauth_codes.redirect_uri_given is 'Whether the authorization request named redirect_uri (then the token request must repeat it).';

create table oauth_grants (
  id bigint default nextval('oauth_grants_id_seq'::regclass) not null,
  user_id bigint not null,
  client_id text not null,
  scopes text[] not null,
  resource text not null,
  created_at timestamp with time zone default now() not null,
  revoked_at timestamp with time zone,
  constraint oauth_grants_client_id_fkey FOREIGN KEY (client_id) REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  constraint oauth_grants_pkey PRIMARY KEY (id),
  constraint oauth_grants_scopes_check CHECK ((scopes <@ ARRAY['account:read'::text, 'listings:write'::text, 'orders:write'::text])),
  constraint oauth_grants_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table oauth_grants is 'What a person allowed a client (consent); revoking it revokes every token issued under it.';
comment on column oauth_grants.resource is 'The RFC 8707 resource (audience) every token of this grant is bound to: {site}/mcp or {site}/api/v1.';

create table oauth_tokens (
  token_hash text not null,
  kind text not null,
  grant_id bigint not null,
  scopes text[] not null,
  resource text not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone not null,
  last_used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  replaced_by text,
  constraint oauth_tokens_grant_id_fkey FOREIGN KEY (grant_id) REFERENCES oauth_grants(id) ON DELETE CASCADE,
  constraint oauth_tokens_kind_check CHECK ((kind = ANY (ARRAY['access'::text, 'refresh'::text]))),
  constraint oauth_tokens_pkey PRIMARY KEY (token_hash)
);
comment on table oauth_tokens is 'Access tokens (audience = resource) and rotating refresh tokens.';

create table operator_audit (
  id bigint default nextval('operator_audit_id_seq'::regclass) not null,
  actor text not null,
  action text not null,
  target text not null,
  before jsonb,
  after jsonb,
  at timestamp with time zone default now() not null,
  constraint operator_audit_action_check CHECK ((action ~ '^[a-z][a-z0-9_.-]{0,79}$'::text)),
  constraint operator_audit_actor_check CHECK (((length(actor) >= 1) AND (length(actor) <= 200))),
  constraint operator_audit_pkey PRIMARY KEY (id),
  constraint operator_audit_target_check CHECK ((length(target) <= 500))
);
comment on table operator_audit is 'Audit trail of operator commands: who changed what, when, with the state before and after.';

create table operator_tasks (
  id bigint default nextval('operator_tasks_id_seq'::regclass) not null,
  kind text not null,
  order_line_id bigint,
  listing_id bigint,
  notes text,
  status text default 'open'::text not null,
  created_at timestamp with time zone default now() not null,
  done_at timestamp with time zone,
  done_note text,
  constraint operator_tasks_done_note_check CHECK ((length(done_note) <= 2000)),
  constraint operator_tasks_kind_check CHECK ((kind ~ '^[a-z_]{1,40}$'::text)),
  constraint operator_tasks_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE SET NULL,
  constraint operator_tasks_notes_check CHECK ((length(notes) <= 2000)),
  constraint operator_tasks_order_line_id_fkey FOREIGN KEY (order_line_id) REFERENCES order_lines(id) ON DELETE SET NULL,
  constraint operator_tasks_order_line_id_key UNIQUE (order_line_id),
  constraint operator_tasks_pkey PRIMARY KEY (id),
  constraint operator_tasks_status_check CHECK ((status = ANY (ARRAY['open'::text, 'done'::text, 'cancelled'::text])))
);
comment on table operator_tasks is 'Work for the site team (done_for_you launches): npm run ops -- tasks lists them, tasks done <id> closes one.';

create table order_documents (
  id bigint default nextval('order_documents_id_seq'::regclass) not null,
  order_id bigint not null,
  site_id integer not null,
  kind text not null,
  year integer not null,
  seq integer not null,
  number text not null,
  refers_to bigint,
  currency text not null,
  net_cents bigint not null,
  vat_cents bigint not null,
  total_cents bigint not null,
  issued_at timestamp with time zone default now() not null,
  pdf bytea not null,
  constraint order_documents_check CHECK (((kind = 'credit_note'::text) = (refers_to IS NOT NULL))),
  constraint order_documents_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint order_documents_kind_check CHECK ((kind = ANY (ARRAY['invoice'::text, 'credit_note'::text]))),
  constraint order_documents_number_check CHECK ((length(number) <= 40)),
  constraint order_documents_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE RESTRICT,
  constraint order_documents_pdf_check CHECK (((octet_length(pdf) >= 100) AND (octet_length(pdf) <= 5000000))),
  constraint order_documents_pkey PRIMARY KEY (id),
  constraint order_documents_refers_to_fkey FOREIGN KEY (refers_to) REFERENCES order_documents(id) ON DELETE RESTRICT,
  constraint order_documents_seq_check CHECK ((seq >= 1)),
  constraint order_documents_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE RESTRICT,
  constraint order_documents_site_id_kind_year_seq_key UNIQUE (site_id, kind, year, seq)
);
comment on table order_documents is 'Invoices and credit notes as issued: the PDF bytes are stored once and served as they are. A credit note refers to the invoice it corrects (amounts negative).';

create table order_lines (
  id bigint default nextval('order_lines_id_seq'::regclass) not null,
  order_id bigint not null,
  "position" integer not null,
  product_code text not null,
  listing_id bigint,
  week date,
  categories text[] default '{}'::text[] not null,
  options jsonb,
  amount_cents bigint not null,
  vat_cents bigint not null,
  total_cents bigint not null,
  fulfilment_status text default 'pending'::text not null,
  fulfilled_at timestamp with time zone,
  fulfilment jsonb,
  reversal jsonb,
  constraint order_lines_amount_cents_check CHECK (((amount_cents >= 0) AND (amount_cents <= 100000000))),
  constraint order_lines_categories_check CHECK ((cardinality(categories) <= 3)),
  constraint order_lines_check CHECK ((total_cents = (amount_cents + vat_cents))),
  constraint order_lines_check1 CHECK (((fulfilment_status = ANY (ARRAY['fulfilled'::text, 'reversed'::text])) = (fulfilled_at IS NOT NULL))),
  constraint order_lines_fulfilment_check CHECK ((jsonb_typeof(fulfilment) = 'object'::text)),
  constraint order_lines_fulfilment_status_check CHECK ((fulfilment_status = ANY (ARRAY['pending'::text, 'fulfilled'::text, 'reversed'::text, 'cancelled'::text]))),
  constraint order_lines_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE SET NULL,
  constraint order_lines_options_check CHECK ((jsonb_typeof(options) = 'object'::text)),
  constraint order_lines_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE,
  constraint order_lines_order_id_position_key UNIQUE (order_id, "position"),
  constraint order_lines_pkey PRIMARY KEY (id),
  constraint order_lines_position_check CHECK ((("position" >= 0) AND ("position" <= 19))),
  constraint order_lines_product_code_fkey FOREIGN KEY (product_code) REFERENCES products(code) ON DELETE RESTRICT,
  constraint order_lines_reversal_check CHECK ((jsonb_typeof(reversal) = 'object'::text)),
  constraint order_lines_vat_cents_check CHECK ((vat_cents >= 0)),
  constraint order_lines_week_check CHECK ((EXTRACT(isodow FROM week) = (1)::numeric))
);
comment on table order_lines is 'One product of an order, priced when the order was made; fulfilled exactly once (fulfilment says what it did).';

create table orders (
  id bigint default nextval('orders_id_seq'::regclass) not null,
  number text not null,
  site_id integer not null,
  user_id bigint not null,
  status text default 'pending'::text not null,
  currency text not null,
  subtotal_cents bigint not null,
  vat_cents bigint not null,
  total_cents bigint not null,
  vat jsonb not null,
  billing_name text,
  billing_address text,
  billing_country text,
  vat_number text,
  provider text not null,
  provider_session_id text,
  provider_session_url text,
  provider_session_total_cents bigint,
  provider_payment_id text,
  expires_at timestamp with time zone not null,
  paid_at timestamp with time zone,
  fulfilled_at timestamp with time zone,
  refunded_at timestamp with time zone,
  refund jsonb,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint orders_billing_address_check CHECK ((length(billing_address) <= 1000)),
  constraint orders_billing_country_check CHECK ((billing_country ~ '^[A-Z]{2}$'::text)),
  constraint orders_billing_name_check CHECK ((length(billing_name) <= 200)),
  constraint orders_check CHECK ((((total_cents >= 0) AND (total_cents <= 2000000000)) AND (total_cents = (subtotal_cents + vat_cents)))),
  constraint orders_check1 CHECK ((((status = ANY (ARRAY['paid'::text, 'fulfilled'::text, 'refunded'::text])) = (paid_at IS NOT NULL)) OR (status = 'expired'::text))),
  constraint orders_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint orders_number_check CHECK ((number ~ '^[A-Z0-9-]{8,32}$'::text)),
  constraint orders_number_key UNIQUE (number),
  constraint orders_pkey PRIMARY KEY (id),
  constraint orders_provider_check CHECK ((provider = ANY (ARRAY['test'::text, 'stripe'::text]))),
  constraint orders_provider_payment_id_check CHECK ((length(provider_payment_id) <= 255)),
  constraint orders_provider_session_id_check CHECK ((length(provider_session_id) <= 255)),
  constraint orders_provider_session_url_check CHECK ((length(provider_session_url) <= 2048)),
  constraint orders_refund_check CHECK ((jsonb_typeof(refund) = 'object'::text)),
  constraint orders_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE RESTRICT,
  constraint orders_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'paid'::text, 'fulfilled'::text, 'expired'::text, 'refunded'::text]))),
  constraint orders_subtotal_cents_check CHECK (((subtotal_cents >= 0) AND (subtotal_cents <= 2000000000))),
  constraint orders_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE RESTRICT,
  constraint orders_vat_cents_check CHECK (((vat_cents >= 0) AND (vat_cents <= 2000000000))),
  constraint orders_vat_check CHECK ((jsonb_typeof(vat) = 'object'::text)),
  constraint orders_vat_number_check CHECK ((length(vat_number) <= 32))
);
comment on table orders is 'An owner''s order: lines priced with the site''s current prices, VAT by billing country, paid through a provider (Stripe or the test provider). status pending -> paid -> fulfilled, pending -> expired, paid/fulfilled -> refunded.';

create table ownership_disputes (
  id bigint default nextval('ownership_disputes_id_seq'::regclass) not null,
  listing_id bigint not null,
  event_id bigint,
  user_id bigint,
  token_hash text not null,
  message text,
  disputed_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone not null,
  constraint ownership_disputes_event_id_fkey FOREIGN KEY (event_id) REFERENCES ownership_events(id) ON DELETE SET NULL,
  constraint ownership_disputes_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint ownership_disputes_message_check CHECK ((length(message) <= 2000)),
  constraint ownership_disputes_pkey PRIMARY KEY (id),
  constraint ownership_disputes_token_hash_check CHECK ((token_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint ownership_disputes_token_hash_key UNIQUE (token_hash),
  constraint ownership_disputes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
);
comment on table ownership_disputes is 'One per ownership change or co-owner added against someone: the mailed link (token_hash: SHA-256 of its secret) lets that person tell the site team it was wrong (disputed_at, message); ops claims disputes lists them.';

create table ownership_events (
  id bigint default nextval('ownership_events_id_seq'::regclass) not null,
  listing_id bigint not null,
  previous_user_id bigint,
  new_user_id bigint,
  claim_id bigint,
  created_at timestamp with time zone default now() not null,
  kind text default 'owner_changed'::text not null,
  constraint ownership_events_claim_id_fkey FOREIGN KEY (claim_id) REFERENCES claims(id) ON DELETE SET NULL,
  constraint ownership_events_kind_check CHECK ((kind = ANY (ARRAY['owner_changed'::text, 'co_owner_added'::text, 'co_owner_removed'::text]))),
  constraint ownership_events_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint ownership_events_new_user_id_fkey FOREIGN KEY (new_user_id) REFERENCES users(id) ON DELETE SET NULL,
  constraint ownership_events_pkey PRIMARY KEY (id),
  constraint ownership_events_previous_user_id_fkey FOREIGN KEY (previous_user_id) REFERENCES users(id) ON DELETE SET NULL
);
comment on table ownership_events is 'Ownership history of listings: each verified claim, with the earlier and the new owner.';
comment on column ownership_events.kind is 'owner_changed: the claimant became the owner (previous_user_id lost it); co_owner_added: new_user_id became a co-owner beside previous_user_id; co_owner_removed: previous_user_id (a co-owner) was removed by new_user_id (the owner).';

create table payment_events (
  id bigint default nextval('payment_events_id_seq'::regclass) not null,
  provider text not null,
  event_id text not null,
  type text not null,
  order_id bigint,
  amount_cents bigint,
  currency text,
  payment_id text,
  outcome text not null,
  received_at timestamp with time zone default now() not null,
  constraint payment_events_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint payment_events_event_id_check CHECK (((length(event_id) >= 1) AND (length(event_id) <= 255))),
  constraint payment_events_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE SET NULL,
  constraint payment_events_outcome_check CHECK ((outcome ~ '^[a-z_]{1,40}$'::text)),
  constraint payment_events_payment_id_check CHECK ((length(payment_id) <= 255)),
  constraint payment_events_pkey PRIMARY KEY (id),
  constraint payment_events_provider_check CHECK ((provider = ANY (ARRAY['test'::text, 'stripe'::text]))),
  constraint payment_events_provider_event_id_key UNIQUE (provider, event_id),
  constraint payment_events_type_check CHECK ((length(type) <= 100))
);
comment on table payment_events is 'Every payment event received (Stripe webhooks, test-provider payments), once per provider event id: replays and duplicates change nothing twice.';

create table primary_category_count_deltas (
  site_id integer not null,
  category_id integer not null,
  delta integer not null
);
comment on table primary_category_count_deltas is 'Live listings that entered (+) or left (-) a site and primary category since the last refresh.';

create table primary_category_counts (
  site_id integer not null,
  category_id integer not null,
  listings integer not null,
  constraint primary_category_counts_listings_check CHECK ((listings >= 0)),
  constraint primary_category_counts_pkey PRIMARY KEY (site_id, category_id)
);
comment on table primary_category_counts is 'Live listings per site and primary category (listings.primary_category_id) as of the last refresh; primary_category_live() adds the moves since.';

create table product_prices (
  id bigint default nextval('product_prices_id_seq'::regclass) not null,
  site_id integer not null,
  product_code text not null,
  amount_cents bigint not null,
  currency text default 'USD'::text not null,
  min_amount_cents bigint,
  valid_from timestamp with time zone default now() not null,
  constraint product_prices_amount_cents_check CHECK (((amount_cents >= 0) AND (amount_cents <= 100000000))),
  constraint product_prices_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint product_prices_min_amount_cents_check CHECK (((min_amount_cents >= 1) AND (min_amount_cents <= 100000000))),
  constraint product_prices_pkey PRIMARY KEY (id),
  constraint product_prices_product_code_fkey FOREIGN KEY (product_code) REFERENCES products(code) ON DELETE CASCADE,
  constraint product_prices_site_id_fkey FOREIGN KEY (site_id) REFERENCES sites(id) ON DELETE CASCADE
);
comment on table product_prices is 'Admin-set prices; the newest row per site and product that is already valid is current.';

create table products (
  code text not null,
  name text not null,
  description text default ''::text not null,
  needs_listing boolean default true not null,
  needs_week boolean default false not null,
  options jsonb,
  "position" integer default 0 not null,
  active boolean default true not null,
  constraint products_code_check CHECK ((code ~ '^[a-z0-9_]{1,60}$'::text)),
  constraint products_description_check CHECK ((length(description) <= 2000)),
  constraint products_name_check CHECK ((length(name) <= 200)),
  constraint products_options_check CHECK (((options IS NULL) OR (jsonb_typeof(options) = 'object'::text))),
  constraint products_pkey PRIMARY KEY (code)
);
comment on table products is 'What can be bought: launch, skip_queue, featured, and so on.';
comment on column products.options is 'JSON Schema of the free-form options an order item may carry, or null.';

create table recrawl_batches (
  id uuid default gen_random_uuid() not null,
  selector jsonb not null,
  concurrency integer default 4 not null,
  created_by text not null,
  created_at timestamp with time zone default now() not null,
  cancelled_at timestamp with time zone,
  constraint recrawl_batches_concurrency_check CHECK (((concurrency >= 1) AND (concurrency <= 64))),
  constraint recrawl_batches_created_by_check CHECK (((length(created_by) >= 1) AND (length(created_by) <= 200))),
  constraint recrawl_batches_pkey PRIMARY KEY (id),
  constraint recrawl_batches_selector_check CHECK ((jsonb_typeof(selector) = 'object'::text))
);
comment on table recrawl_batches is 'One operator re-crawl command: the selector it was run with, who ran it, and whether it was cancelled.';

create table recrawl_items (
  batch_id uuid not null,
  listing_id bigint not null,
  status text default 'queued'::text not null,
  failure_reason text,
  failure_detail text,
  finished_at timestamp with time zone,
  constraint recrawl_items_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES recrawl_batches(id) ON DELETE CASCADE,
  constraint recrawl_items_failure_detail_check CHECK ((length(failure_detail) <= 2000)),
  constraint recrawl_items_failure_reason_check CHECK ((failure_reason ~ '^[a-z_]{1,40}$'::text)),
  constraint recrawl_items_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint recrawl_items_pkey PRIMARY KEY (batch_id, listing_id),
  constraint recrawl_items_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'done'::text, 'failed'::text, 'cancelled'::text])))
);
comment on table recrawl_items is 'A listing of a re-crawl batch and how its re-crawl ended (queued until its job finishes).';

create table revenue_figures (
  company_id bigint not null,
  month date not null,
  mrr_cents bigint not null,
  currency text default 'USD'::text not null,
  verified boolean default false not null,
  constraint revenue_figures_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies(id) ON DELETE CASCADE,
  constraint revenue_figures_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint revenue_figures_month_check CHECK ((EXTRACT(day FROM month) = (1)::numeric)),
  constraint revenue_figures_mrr_cents_check CHECK ((mrr_cents >= 0)),
  constraint revenue_figures_pkey PRIMARY KEY (company_id, month)
);
comment on table revenue_figures is 'Monthly recurring revenue a company reports, in integer cents.';

create table review_flags (
  review_id bigint not null,
  user_id bigint not null,
  created_at timestamp with time zone default now() not null,
  resolved_at timestamp with time zone,
  constraint review_flags_pkey PRIMARY KEY (review_id, user_id),
  constraint review_flags_review_id_fkey FOREIGN KEY (review_id) REFERENCES reviews(id) ON DELETE CASCADE,
  constraint review_flags_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table review_flags is 'Who flagged which review. A review is hidden when flags from sites.review_hide_flags distinct accounts, each older than sites.review_flagger_min_age_days when it flagged, are unresolved; ops reviews keep|remove decides and resolves them.';
comment on column review_flags.resolved_at is 'When the site team decided on the review: a resolved flag is kept as a record but no longer counts towards hiding it.';

create table reviews (
  id bigint default nextval('reviews_id_seq'::regclass) not null,
  listing_id bigint not null,
  user_id bigint not null,
  rating integer not null,
  body text,
  flagged boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  moderation text,
  moderated_at timestamp with time zone,
  moderation_reason text,
  owner_reply text,
  owner_reply_at timestamp with time zone,
  owner_reply_by bigint,
  constraint reviews_body_check CHECK ((length(body) <= 5000)),
  constraint reviews_body_not_blank CHECK (((body IS NULL) OR (length(btrim(body)) > 0))),
  constraint reviews_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint reviews_listing_id_user_id_key UNIQUE (listing_id, user_id),
  constraint reviews_moderation_check CHECK ((moderation = ANY (ARRAY['kept'::text, 'removed'::text]))),
  constraint reviews_moderation_reason_check CHECK (((length(moderation_reason) >= 1) AND (length(moderation_reason) <= 500))),
  constraint reviews_owner_reply_by_fkey FOREIGN KEY (owner_reply_by) REFERENCES users(id) ON DELETE SET NULL,
  constraint reviews_owner_reply_check CHECK (((length(btrim(owner_reply)) >= 1) AND (length(btrim(owner_reply)) <= 2000))),
  constraint reviews_pkey PRIMARY KEY (id),
  constraint reviews_rating_check CHECK (((rating >= 1) AND (rating <= 5))),
  constraint reviews_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table reviews is 'Community reviews. Only genuine ones (not by the owner, not flagged) count towards the rating.';
comment on column reviews.flagged is 'Hidden: not shown and not counted. Set when flags from enough distinct aged accounts arrive (sites.review_hide_flags) or when the site team removes the review; see review_recheck.';
comment on column reviews.moderated_at is 'When the site team decided on the review.';
comment on column reviews.moderation is 'The site team''s last decision on the flagged review: kept (its flags so far no longer count) or removed (hidden for good, still stored).';
comment on column reviews.moderation_reason is 'Why the site team kept or removed the review, as mailed to the reviewer and the flaggers.';
comment on column reviews.owner_reply is 'The listing owner''s one public answer to the review, shown under it.';
comment on column reviews.owner_reply_at is 'When the owner answered.';
comment on column reviews.owner_reply_by is 'Which owner answered.';
comment on column reviews.updated_at is 'When the reviewer last edited the rating or text.';

create table schema_functions (
  id boolean default true not null,
  hash text not null,
  applied_at timestamp with time zone default now() not null,
  constraint schema_functions_id_check CHECK (id),
  constraint schema_functions_pkey PRIMARY KEY (id)
);
comment on table schema_functions is 'The hash of the sql/functions files last applied (sql/migrate.ts applies them again when it differs).';

create table schema_migrations (
  name text not null,
  applied_at timestamp with time zone default now() not null,
  constraint schema_migrations_pkey PRIMARY KEY (name)
);
comment on table schema_migrations is 'The migrations applied, by file name (sql/migrate.ts inserts the row before running the file, so a concurrent migrator fails cleanly).';

create table search_lexeme_deltas (
  lexeme text not null,
  delta integer not null
);
comment on table search_lexeme_deltas is 'Lexemes listings gained (+1) or lost (-1) since the last refresh.';

create table search_lexemes (
  lexeme text not null,
  listings integer not null,
  constraint search_lexemes_listings_check CHECK ((listings > 0)),
  constraint search_lexemes_pkey PRIMARY KEY (lexeme)
);
comment on table search_lexemes is 'Distinct lexemes of listings.search, with how many listings have each: what a search prefix can stand for.';

create table search_word_deltas (
  word text not null,
  delta integer not null
);
comment on table search_word_deltas is 'Words listings gained (+1) or lost (-1) since the last refresh.';

create table search_words (
  word text not null,
  listings integer not null,
  constraint search_words_listings_check CHECK ((listings > 0)),
  constraint search_words_pkey PRIMARY KEY (word)
);
comment on table search_words is 'Distinct words of live and scheduled listings'' text, used to correct typos in search terms.';

create table sessions (
  id_hash text not null,
  user_id bigint not null,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone not null,
  last_seen_at timestamp with time zone default now() not null,
  ended_at timestamp with time zone,
  constraint sessions_pkey PRIMARY KEY (id_hash),
  constraint sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table sessions is 'Signed-in browser sessions (cookie value stored as its hash); ended_at is sign-out.';

create table sites (
  id integer default nextval('sites_id_seq'::regclass) not null,
  key text not null,
  name text not null,
  url text not null,
  purpose text default ''::text not null,
  is_self boolean default false not null,
  free_queue_min_weeks integer default 6 not null,
  free_queue_max_weeks integer default 8 not null,
  launch_slots_per_week integer default 20 not null,
  first_launch_week date default (date_trunc('week'::text, ((now() AT TIME ZONE 'utc'::text) - '364 days'::interval)))::date not null,
  created_at timestamp with time zone default now() not null,
  review_hide_flags integer default 3 not null,
  review_flagger_min_age_days integer default 7 not null,
  seller_name text,
  seller_address text,
  seller_vat_id text,
  constraint sites_check CHECK ((free_queue_min_weeks <= free_queue_max_weeks)),
  constraint sites_first_launch_week_check CHECK ((EXTRACT(isodow FROM first_launch_week) = (1)::numeric)),
  constraint sites_free_queue_max_weeks_check CHECK (((free_queue_max_weeks >= 1) AND (free_queue_max_weeks <= 52))),
  constraint sites_free_queue_min_weeks_check CHECK (((free_queue_min_weeks >= 1) AND (free_queue_min_weeks <= 52))),
  constraint sites_key_check CHECK ((key ~ '^[a-z0-9][a-z0-9-]{0,39}$'::text)),
  constraint sites_key_key UNIQUE (key),
  constraint sites_launch_slots_per_week_check CHECK (((launch_slots_per_week >= 1) AND (launch_slots_per_week <= 1000))),
  constraint sites_name_check CHECK ((length(name) <= 200)),
  constraint sites_pkey PRIMARY KEY (id),
  constraint sites_purpose_check CHECK ((length(purpose) <= 2000)),
  constraint sites_review_flagger_min_age_days_check CHECK (((review_flagger_min_age_days >= 0) AND (review_flagger_min_age_days <= 365))),
  constraint sites_review_hide_flags_check CHECK (((review_hide_flags >= 1) AND (review_hide_flags <= 100))),
  constraint sites_seller_address_check CHECK ((length(seller_address) <= 1000)),
  constraint sites_seller_name_check CHECK ((length(seller_name) <= 200)),
  constraint sites_seller_vat_id_check CHECK ((length(seller_vat_id) <= 32)),
  constraint sites_url_check CHECK ((length(url) <= 500))
);
comment on table sites is 'The network of directory sites; is_self marks this deployment. A company can have listings on several.';
comment on column sites.review_flagger_min_age_days is 'How many days old an account must be for its flag of a review to count towards review_hide_flags.';
comment on column sites.review_hide_flags is 'Flags from distinct accounts (each older than review_flagger_min_age_days when it flagged) that hide a review until the site team decides.';
comment on column sites.seller_address is 'The seller''s postal address on invoices, lines separated by newlines (ops site set --seller-address).';
comment on column sites.seller_name is 'The legal name printed as the seller on invoices and credit notes (ops site set --seller-name).';
comment on column sites.seller_vat_id is 'The seller''s VAT ID on invoices (ops site set --seller-vat-id).';

create table stats_salts (
  day date not null,
  salt bytea default uuid_send(gen_random_uuid()) not null,
  constraint stats_salts_pkey PRIMARY KEY (day)
);
comment on table stats_salts is 'A random salt per UTC day for recognising a returning visitor that day; deleted after two days, after which the day''s visitor hashes mean nothing.';

create table update_notifications (
  update_id bigint not null,
  user_id bigint not null,
  listing_id bigint not null,
  mail_id bigint,
  unsubscribe_hash text not null,
  created_at timestamp with time zone default now() not null,
  constraint update_notifications_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint update_notifications_mail_id_fkey FOREIGN KEY (mail_id) REFERENCES mail_outbox(id) ON DELETE SET NULL,
  constraint update_notifications_pkey PRIMARY KEY (update_id, user_id),
  constraint update_notifications_unsubscribe_hash_check CHECK ((unsubscribe_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint update_notifications_unsubscribe_hash_key UNIQUE (unsubscribe_hash),
  constraint update_notifications_update_id_fkey FOREIGN KEY (update_id) REFERENCES listing_updates(id) ON DELETE CASCADE,
  constraint update_notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table update_notifications is 'One row per follower told about a listing update: the primary key makes the notify_followers job mail each follower exactly once however often it runs. unsubscribe_hash is the SHA-256 of the mail''s unsubscribe secret.';

create table users (
  id bigint default nextval('users_id_seq'::regclass) not null,
  email text not null,
  name text,
  created_at timestamp with time zone default now() not null,
  last_sign_in_at timestamp with time zone,
  suspended_at timestamp with time zone,
  suspended_reason text,
  constraint users_email_check CHECK ((length(email) <= 254)),
  constraint users_name_check CHECK ((length(name) <= 160)),
  constraint users_pkey PRIMARY KEY (id),
  constraint users_suspended_reason_check CHECK (((length(suspended_reason) >= 1) AND (length(suspended_reason) <= 500)))
);
comment on table users is 'People with an account: owners, voters, reviewers.';
comment on column users.suspended_at is 'When the site team suspended the account (null: not suspended); its votes, follows, reviews and flags do not count meanwhile.';
comment on column users.suspended_reason is 'Why the account was suspended, as told to the person.';

create table view_salts (
  day date not null,
  salt text not null,
  constraint view_salts_pkey PRIMARY KEY (day)
);
comment on table view_salts is 'One random salt per UTC day for hashing visitors of listing pages; older salts are deleted as soon as a new day starts.';

create table views_dirty (
  view_name text not null
);
comment on table views_dirty is 'Materialized views whose sources changed since the last refresh (repeats allowed).';

create table vote_network_key (
  only_row boolean default true not null,
  key text not null,
  constraint vote_network_key_only_row_check CHECK (only_row),
  constraint vote_network_key_pkey PRIMARY KEY (only_row)
);
comment on table vote_network_key is 'The secret key of vote_signals.network (one row): networks are compared by keyed hash, never stored.';

create table vote_signals (
  vote_id bigint not null,
  account_age interval not null,
  sign_in text not null,
  network bytea,
  ua_family text not null,
  visited_before boolean not null,
  created_at timestamp with time zone default now() not null,
  constraint vote_signals_pkey PRIMARY KEY (vote_id),
  constraint vote_signals_sign_in_check CHECK ((sign_in ~ '^[a-z_]{1,40}$'::text)),
  constraint vote_signals_ua_family_check CHECK ((ua_family ~ '^[a-z0-9_]{1,40}$'::text)),
  constraint vote_signals_vote_id_fkey FOREIGN KEY (vote_id) REFERENCES votes(id) ON DELETE CASCADE
);
comment on table vote_signals is 'What is needed to judge a vote, without the address: the account''s age when it voted, how it signed in, a keyed hash of its /24 (IPv4) or /48 (IPv6) network, its browser family, and whether it had viewed the listing before. Kept 400 days (purge_vote_signals).';

create table votes (
  listing_id bigint not null,
  user_id bigint not null,
  created_at timestamp with time zone default now() not null,
  id bigint generated always as identity not null,
  discounted_at timestamp with time zone,
  discount_reason text,
  discounted_by text,
  constraint votes_discount_complete CHECK (((discounted_at IS NULL) = (discount_reason IS NULL))),
  constraint votes_discount_reason_check CHECK (((length(discount_reason) >= 1) AND (length(discount_reason) <= 500))),
  constraint votes_discounted_by_check CHECK (((length(discounted_by) >= 1) AND (length(discounted_by) <= 200))),
  constraint votes_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings(id) ON DELETE CASCADE,
  constraint votes_pkey PRIMARY KEY (listing_id, user_id),
  constraint votes_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
comment on table votes is 'One community vote per person per listing, cast on the site.';
comment on column votes.discount_reason is 'Why the vote was discounted; published in the launch integrity report.';
comment on column votes.discounted_at is 'When the site team discounted the vote: kept, shown in the launch integrity report, but counted by no ranking, board or award.';
comment on column votes.discounted_by is 'Who in the site team discounted the vote.';
comment on column votes.id is 'A vote''s number, by which the site team names votes to discount or restore.';

create table week_totals (
  site_id integer not null,
  week date not null,
  total integer not null,
  constraint week_totals_pkey PRIMARY KEY (site_id, week),
  constraint week_totals_total_check CHECK ((total >= 0))
);
comment on table week_totals is 'Live launches per launch week as of the last refresh: the size of each week''s ranking.';

create table worker_schema_releases (
  release text not null,
  applied_at timestamp with time zone default now() not null,
  constraint worker_schema_releases_pkey PRIMARY KEY (release)
);
comment on table worker_schema_releases is 'graphile-worker releases whose schema migrations have run here (sql/migrate.ts skips loading the package when its release is listed)';

CREATE INDEX api_keys_user ON public.api_keys USING btree (user_id, created_at DESC);

CREATE INDEX awards_listing ON public.awards USING btree (listing_id);

CREATE INDEX billboard_contributions_listing ON public.billboard_contributions USING btree (listing_id);

CREATE INDEX blog_posts_published ON public.blog_posts USING btree (published_at DESC);

CREATE INDEX blog_posts_search ON public.blog_posts USING gin (search) WITH (fastupdate=off);

CREATE INDEX blog_posts_title_trgm ON public.blog_posts USING gin (lower(title) gin_trgm_ops) WITH (fastupdate=off);

CREATE INDEX categories_parent ON public.categories USING btree (parent_id);

CREATE INDEX category_members_listing ON public.category_members USING btree (listing_id);

CREATE INDEX category_members_page ON public.category_members USING btree (site_id, category_id, votes DESC, launched_at DESC NULLS LAST, listing_id);

CREATE INDEX claims_listing ON public.claims USING btree (listing_id) WHERE (status = 'verified'::text);

CREATE INDEX claims_user ON public.claims USING btree (user_id, created_at DESC, id DESC);

CREATE UNIQUE INDEX companies_domain ON public.companies USING btree (lower(domain));

CREATE INDEX company_owners_user ON public.company_owners USING btree (user_id);

CREATE UNIQUE INDEX draft_invites_address ON public.draft_invites USING btree (draft_id, lower(email));

CREATE INDEX drafts_in_progress ON public.drafts USING btree (updated_at) WHERE (status = ANY (ARRAY['crawling'::text, 'drafting'::text]));

CREATE INDEX drafts_user ON public.drafts USING btree (user_id, created_at DESC);

CREATE INDEX founders_country ON public.founders USING btree (country);

CREATE INDEX founders_name_trgm ON public.founders USING gin (lower(name) gin_trgm_ops) WITH (fastupdate=off);

CREATE INDEX idempotency_keys_expires ON public.idempotency_keys USING btree (expires_at);

CREATE INDEX listing_ai_reviews_listing ON public.listing_ai_reviews USING btree (listing_id, created_at DESC);

CREATE INDEX listing_categories_category ON public.listing_categories USING btree (category_id);

CREATE UNIQUE INDEX listing_categories_one_primary ON public.listing_categories USING btree (listing_id) WHERE is_primary;

CREATE INDEX listing_domain_rating_board ON public.listing_domain_rating USING btree (site_id, rating DESC, listing_id) WHERE live;

CREATE INDEX listing_faqs_listing ON public.listing_faqs USING btree (listing_id, "position");

CREATE INDEX listing_featured_listing ON public.listing_featured USING btree (listing_id, ends_at DESC);

CREATE INDEX listing_founders_founder ON public.listing_founders USING btree (founder_id);

CREATE INDEX listing_stats_board ON public.listing_stats USING btree (site_id, votes DESC, listing_id) WHERE (live AND (votes > 0));

CREATE INDEX listing_stats_category_rank ON public.listing_stats USING btree (site_id, primary_category_id, votes DESC, launched_at DESC NULLS LAST, listing_id DESC) WHERE live;
comment on index listing_stats_category_rank is 'Live listings of one primary category by votes, then launch time (newest first), then id: alternatives of a listing, read in order.';

CREATE INDEX listing_stats_follows ON public.listing_stats USING btree (site_id, follows DESC, listing_id);

CREATE INDEX listing_stats_live_follows ON public.listing_stats USING btree (site_id, follows DESC, launched_at DESC NULLS LAST, listing_id DESC) WHERE live;
comment on index listing_stats_live_follows is 'Live listings by follows, then launch time (newest first), then id: lists without q sorted by most_followed.';

CREATE INDEX listing_stats_live_rank ON public.listing_stats USING btree (site_id, votes DESC, launched_at DESC NULLS LAST, listing_id DESC) WHERE live;
comment on index listing_stats_live_rank is 'Live listings by votes, then launch time (newest first), then id: the votes order a search walks for a large tie at its page''s end (alternatives read listing_stats_category_rank since 0024).';

CREATE INDEX listing_stats_live_trending ON public.listing_stats USING btree (site_id, trend_log DESC, launched_at DESC NULLS LAST, listing_id DESC) WHERE live;
comment on index listing_stats_live_trending is 'Live listings by trending (trend_log), then launch time (newest first), then id: lists without q sorted by trending.';

CREATE INDEX listing_stats_live_views ON public.listing_stats USING btree (site_id, views DESC, launched_at DESC NULLS LAST, listing_id DESC) WHERE live;
comment on index listing_stats_live_views is 'Live listings by views, then launch time (newest first), then id: lists without q sorted by most_viewed.';

CREATE INDEX listing_stats_trending ON public.listing_stats USING btree (site_id, trend_log DESC, votes DESC, listing_id);

CREATE INDEX listing_stats_views ON public.listing_stats USING btree (site_id, views DESC, listing_id);

CREATE INDEX listing_stats_votes ON public.listing_stats USING btree (site_id, votes DESC, listing_id);

CREATE INDEX listing_stats_week_rank ON public.listing_stats USING btree (site_id, launch_week, week_votes DESC, launched_at, listing_id) WHERE (live AND (launch_week IS NOT NULL));

CREATE INDEX listing_updates_listing ON public.listing_updates USING btree (listing_id, created_at DESC);

CREATE INDEX listing_updates_newest ON public.listing_updates USING btree (created_at DESC, id DESC);

CREATE INDEX listing_versions_listing ON public.listing_versions USING btree (listing_id, created_at DESC, id DESC);

CREATE INDEX listing_versions_site ON public.listing_versions USING btree (site_id, created_at DESC, id DESC);

CREATE INDEX listings_browse ON public.listings USING btree (site_id, status) INCLUDE (id, primary_category_id, stage, country, pricing_model, domain, launched_at);

CREATE INDEX listings_category_live ON public.listings USING btree (site_id, primary_category_id, launched_at DESC NULLS LAST, id DESC) WHERE (status = 'live'::text);
comment on index listings_category_live is 'Live listings of a primary category, newest first (alternatives of a listing).';

CREATE INDEX listings_company ON public.listings USING btree (company_id);

CREATE INDEX listings_country ON public.listings USING btree (country);

CREATE INDEX listings_country_browse ON public.listings USING btree (site_id, status, country) INCLUDE (id, launched_at, launch_week, stage, pricing_model);
comment on index listings_country_browse is 'A site''s listings of one status and country: lists filtered by country (search_listings).';

CREATE INDEX listings_created ON public.listings USING btree (created_at DESC);

CREATE INDEX listings_domain ON public.listings USING btree (lower(domain));

CREATE INDEX listings_domain_suffix ON public.listings USING btree (reverse(lower(domain)) text_pattern_ops);

CREATE INDEX listings_live_launched ON public.listings USING btree (site_id, launched_at DESC NULLS LAST, id DESC) INCLUDE (stage, country, pricing_model) WHERE (status = 'live'::text);

CREATE INDEX listings_name_trgm ON public.listings USING gin (lower(name) gin_trgm_ops) WITH (fastupdate=off);

CREATE INDEX listings_pricing_browse ON public.listings USING btree (site_id, status, lower(pricing_model)) INCLUDE (id, launched_at, launch_week, pricing_model, stage, country);
comment on index listings_pricing_browse is 'A site''s listings of one status and pricing model, in lower case: lists filtered by pricing model (search_listings). pricing_model is included so the planner can read the index alone.';

CREATE INDEX listings_primary_category ON public.listings USING btree (primary_category_id) WHERE (status = 'live'::text);

CREATE INDEX listings_publishing ON public.listings USING btree (status, badge_checked_at) WHERE (status = ANY (ARRAY['awaiting_badge'::text, 'scheduled'::text]));

CREATE INDEX listings_scheduled_order ON public.listings USING btree (site_id, launch_week, launched_at, name, id) WHERE (status = 'scheduled'::text);

CREATE INDEX listings_search ON public.listings USING gin (search) WITH (fastupdate=off);

CREATE INDEX listings_stage_browse ON public.listings USING btree (site_id, status, stage) INCLUDE (id, launched_at, launch_week, country, pricing_model);
comment on index listings_stage_browse is 'A site''s listings of one status and stage: lists filtered by stage (search_listings).';

CREATE INDEX listings_status_week ON public.listings USING btree (site_id, status, launch_week);

CREATE INDEX listings_tagline_trgm ON public.listings USING gin (lower(tagline) gin_trgm_ops) WITH (fastupdate=off);

CREATE INDEX login_links_expires ON public.login_links USING btree (expires_at);

CREATE INDEX mail_outbox_created ON public.mail_outbox USING btree (created_at DESC);

CREATE INDEX milestones_listing ON public.milestones USING btree (listing_id, date DESC);

CREATE UNIQUE INDEX mv_board_billboard_pk ON public.mv_board_billboard USING btree (listing_id);

CREATE INDEX mv_board_billboard_rank ON public.mv_board_billboard USING btree (site_id, rank);

CREATE UNIQUE INDEX mv_board_revenue_pk ON public.mv_board_revenue USING btree (listing_id);

CREATE INDEX mv_board_revenue_rank ON public.mv_board_revenue USING btree (site_id, rank);

CREATE INDEX oauth_clients_registered_from ON public.oauth_clients USING btree (registered_from, created_at) WHERE (kind = 'registered'::text);

CREATE INDEX oauth_codes_expires ON public.oauth_codes USING btree (expires_at);

CREATE INDEX oauth_grants_client ON public.oauth_grants USING btree (client_id);

CREATE INDEX oauth_grants_user ON public.oauth_grants USING btree (user_id);

CREATE INDEX oauth_tokens_expires ON public.oauth_tokens USING btree (expires_at);

CREATE INDEX oauth_tokens_grant ON public.oauth_tokens USING btree (grant_id);

CREATE INDEX operator_audit_at ON public.operator_audit USING btree (at DESC, id DESC);

CREATE INDEX operator_audit_target ON public.operator_audit USING btree (target, at DESC);

CREATE UNIQUE INDEX order_documents_one_invoice ON public.order_documents USING btree (order_id) WHERE (kind = 'invoice'::text);

CREATE INDEX order_documents_order ON public.order_documents USING btree (order_id, issued_at);

CREATE INDEX order_lines_listing ON public.order_lines USING btree (listing_id);

CREATE INDEX orders_pending_expiry ON public.orders USING btree (expires_at) WHERE (status = 'pending'::text);

CREATE INDEX orders_provider_payment ON public.orders USING btree (provider_payment_id) WHERE (provider_payment_id IS NOT NULL);

CREATE INDEX orders_provider_session ON public.orders USING btree (provider_session_id) WHERE (provider_session_id IS NOT NULL);

CREATE INDEX orders_user ON public.orders USING btree (user_id, created_at DESC, id DESC);

CREATE INDEX ownership_disputes_open ON public.ownership_disputes USING btree (disputed_at DESC) WHERE (disputed_at IS NOT NULL);

CREATE INDEX ownership_events_listing ON public.ownership_events USING btree (listing_id, created_at);

CREATE INDEX payment_events_order ON public.payment_events USING btree (order_id);

CREATE INDEX payment_events_waiting_refund ON public.payment_events USING btree (provider, payment_id) WHERE (outcome = 'refund_waiting'::text);

CREATE INDEX product_prices_current ON public.product_prices USING btree (site_id, product_code, valid_from DESC);

CREATE INDEX recrawl_items_listing ON public.recrawl_items USING btree (listing_id);

CREATE UNIQUE INDEX recrawl_items_one_queued ON public.recrawl_items USING btree (listing_id) WHERE (status = 'queued'::text);

CREATE INDEX search_lexemes_prefix ON public.search_lexemes USING btree (lexeme text_pattern_ops);

CREATE INDEX sessions_user ON public.sessions USING btree (user_id);

CREATE UNIQUE INDEX sites_one_self ON public.sites USING btree (is_self) WHERE is_self;

CREATE UNIQUE INDEX users_email_lower ON public.users USING btree (lower(email));

CREATE INDEX users_suspended ON public.users USING btree (id) WHERE (suspended_at IS NOT NULL);

CREATE INDEX vote_signals_created ON public.vote_signals USING btree (created_at);

CREATE INDEX votes_created ON public.votes USING btree (created_at);

CREATE UNIQUE INDEX votes_id ON public.votes USING btree (id);

create view counted_follows as
 SELECT listing_id,
    user_id,
    created_at
   FROM follows f
  WHERE NOT (EXISTS ( SELECT
           FROM users su
          WHERE su.id = f.user_id AND su.suspended_at IS NOT NULL));
comment on view counted_follows is 'The follows that count: not by a suspended account.';

create view counted_votes as
 SELECT listing_id,
    user_id,
    created_at
   FROM votes v
  WHERE discounted_at IS NULL AND NOT (EXISTS ( SELECT
           FROM users su
          WHERE su.id = v.user_id AND su.suspended_at IS NOT NULL));
comment on view counted_votes is 'The votes that count: not discounted by the site team, not by a suspended account.';

create view moderation_feed as
 SELECT v.id,
    v.site_id,
    s.key AS site_key,
    v.listing_id,
    l.slug,
    l.name,
    v.operation,
    u.email AS editor_email,
    v.credential,
    v.before,
    v.after,
    v.created_at
   FROM listing_versions v
     JOIN listings l ON l.id = v.listing_id
     JOIN sites s ON s.id = v.site_id
     LEFT JOIN users u ON u.id = v.user_id;
comment on view moderation_feed is 'The site team''s before/after copy of every owner edit, per site, newest last by id (npm run ops -- moderation).';

create materialized view mv_board_billboard as
 SELECT l.site_id,
    l.id AS listing_id,
    sum(b.amount_cents)::bigint AS amount_cents,
    min(b.currency) AS currency,
    count(*)::integer AS contributions,
    row_number() OVER (PARTITION BY l.site_id ORDER BY (sum(b.amount_cents)) DESC, (min(b.created_at)), l.id)::integer AS rank,
    count(*) OVER (PARTITION BY l.site_id)::integer AS total
   FROM billboard_contributions b
     JOIN listings l ON l.id = b.listing_id
  WHERE l.status = 'live'::text
  GROUP BY l.site_id, l.id;
comment on materialized view mv_board_billboard is 'Paid billboard: ranked by money contributed; always presented as paid.';

create materialized view mv_board_revenue as
 WITH latest AS (
         SELECT DISTINCT ON (revenue_figures.company_id) revenue_figures.company_id,
            revenue_figures.month,
            revenue_figures.mrr_cents,
            revenue_figures.currency,
            revenue_figures.verified
           FROM revenue_figures
          ORDER BY revenue_figures.company_id, revenue_figures.month DESC
        ), converted AS (
         SELECT la.company_id,
            la.month,
            la.mrr_cents,
            la.currency,
            la.verified,
                CASE
                    WHEN la.currency = 'USD'::text THEN la.mrr_cents
                    ELSE round(la.mrr_cents::numeric * fx.usd_per_unit)::bigint
                END AS mrr_usd_cents
           FROM latest la
             LEFT JOIN LATERAL ( SELECT f.usd_per_unit
                   FROM fx_rates f
                  WHERE f.currency = la.currency AND f.valid_from <= (now() AT TIME ZONE 'utc'::text)::date
                  ORDER BY f.valid_from DESC
                 LIMIT 1) fx ON true
        )
 SELECT l.site_id,
    l.id AS listing_id,
    c.mrr_cents,
    c.currency,
    c.month,
    c.verified,
    c.mrr_usd_cents,
        CASE
            WHEN c.verified THEN 'stripe'::text
            ELSE 'self_reported'::text
        END AS source,
    row_number() OVER (PARTITION BY l.site_id ORDER BY c.mrr_usd_cents DESC NULLS LAST, l.id)::integer AS rank,
    count(*) OVER (PARTITION BY l.site_id)::integer AS total
   FROM listings l
     JOIN converted c ON c.company_id = l.company_id
  WHERE l.status = 'live'::text;
comment on materialized view mv_board_revenue is 'Latest monthly recurring revenue per live listing, ranked by its USD value at the site team''s rates (a currency without a rate ranks last); source says self_reported or stripe (verified).';

create view weekly_ranking as
 SELECT listing_id,
    site_id,
    launch_week AS week,
    week_votes AS votes,
    row_number() OVER (PARTITION BY site_id, launch_week ORDER BY week_votes DESC, launched_at, listing_id)::integer AS rank,
    count(*) OVER (PARTITION BY site_id, launch_week)::integer AS total
   FROM listing_stats s
  WHERE live AND launch_week IS NOT NULL;
comment on view weekly_ranking is 'Per launch week, live launches ranked by the votes cast during that week (as of the last refresh); awards follow it. Pages walk listing_stats_week_rank instead.';

CREATE OR REPLACE FUNCTION public.allocate_free_week(p_listing bigint)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function allocate_free_week(p_listing bigint) is 'Queues a free listing in the earliest launch week between the site''s free_queue_min_weeks and free_queue_max_weeks that has fewer than launch_slots_per_week listings (any status but draft); null when every week is full. Serialised per site by an advisory lock.';

CREATE OR REPLACE FUNCTION public.allocate_free_week(p_listing bigint, p_week date)
 RETURNS date
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function allocate_free_week(p_listing bigint, p_week date) is 'Queues a free listing in the requested launch week when it is a Monday between the site''s free_queue_min_weeks and free_queue_max_weeks with fewer than launch_slots_per_week listings (any status but draft); null otherwise. Serialised per site by the same advisory lock as allocate_free_week(bigint).';

CREATE OR REPLACE FUNCTION public.award_week(p_site integer, p_week date)
 RETURNS integer
 LANGUAGE sql
AS $function$
  with winners as (
    insert into awards (site_id, listing_id, week, rank, votes)
    select r.site_id, r.listing_id, r.week, r.rank, r.votes
    from weekly_ranking r
    where r.site_id = p_site and r.week = p_week and r.rank <= 3 and r.votes > 0
      and p_week + 7 <= (now() at time zone 'utc')::date
    on conflict (site_id, week, rank) do nothing
    returning 1)
  select count(*)::int from winners;
$function$;
comment on function award_week(p_site integer, p_week date) is 'Grants Launch of the Week #1-#3 for a finished week from weekly_ranking; idempotent.';

CREATE OR REPLACE FUNCTION public.cast_vote(p_listing bigint, p_user bigint)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
declare l record;
begin
  select id, status, owner_user_id into l from listings where id = p_listing;
  if l.id is null or l.status <> 'live' then return 'not_live'; end if;
  if l.owner_user_id = p_user then return 'own_listing'; end if;
  insert into votes (listing_id, user_id) values (p_listing, p_user) on conflict (listing_id, user_id) do nothing;
  return 'voted';
end $function$;
comment on function cast_vote(p_listing bigint, p_user bigint) is 'Records a person''s vote for a live listing (idempotent). Returns voted, not_live or own_listing (owners do not vote for their own listing).';

CREATE OR REPLACE FUNCTION public.categories_two_levels()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if new.parent_id is not null and exists (select 1 from categories where id = new.parent_id and parent_id is not null) then
    raise exception 'categories are two levels deep' using errcode = 'check_violation';
  end if;
  return new;
end $function$;
comment on function categories_two_levels() is 'Trigger on categories: a child''s parent must itself be top-level (the tree is two levels deep).';

CREATE OR REPLACE FUNCTION public.count_listing_click(p_listing bigint, p_fingerprint bytea)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
declare
  v_day date := (now() at time zone 'utc')::date;
  v_salt bytea;
  v_new int;
begin
  insert into stats_salts (day) values (v_day) on conflict do nothing;
  select salt into v_salt from stats_salts where day = v_day;
  insert into listing_click_visitors (listing_id, day, visitor) values (p_listing, v_day, sha256(v_salt || p_fingerprint))
  on conflict do nothing;
  get diagnostics v_new = row_count;
  if v_new = 0 then return false; end if;
  insert into listing_clicks (listing_id, day, clicks) values (p_listing, v_day, 1)
  on conflict (listing_id, day) do update set clicks = listing_clicks.clicks + 1;
  return true;
end $function$;
comment on function count_listing_click(p_listing bigint, p_fingerprint bytea) is 'Counts a click on a listing''s website link once per visitor and UTC day; p_fingerprint (address and user agent) is hashed with the day''s salt and never stored. True when it counted.';

CREATE OR REPLACE FUNCTION public.directory_changed()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
declare g bigint := nextval('cache_generation');
begin
  perform pg_notify('directory_changed', g::text);
  return g;
end $function$;
comment on function directory_changed() is 'Call in any transaction that changes what public reads show.';

CREATE OR REPLACE FUNCTION public.follow_listing(p_listing bigint, p_user bigint)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
begin
  if not exists (select 1 from listings where id = p_listing and status = 'live') then return 'not_live'; end if;
  insert into follows (listing_id, user_id) values (p_listing, p_user) on conflict (listing_id, user_id) do nothing;
  return 'following';
end $function$;
comment on function follow_listing(p_listing bigint, p_user bigint) is 'Starts following a live listing (idempotent). Returns following or not_live.';

CREATE OR REPLACE FUNCTION public.forget_stats_visitors()
 RETURNS void
 LANGUAGE sql
AS $function$
  delete from listing_click_visitors where day < (now() at time zone 'utc')::date - 1;
  delete from stats_salts where day < (now() at time zone 'utc')::date - 1;
$function$;
comment on function forget_stats_visitors() is 'Deletes visitor hashes and salts older than yesterday (expire_records calls it hourly).';

CREATE OR REPLACE FUNCTION public.launch_integrity(p_listings bigint[])
 RETURNS TABLE(listing_id bigint, votes integer, counted_votes integer, votes_with_signals integer, new_account_votes integer, top_network_votes integer, burst_votes integer, discounted_votes integer, discounted jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  with v as (
    select vo.id, vo.listing_id, vo.created_at, vo.discounted_at, vo.discount_reason, s.vote_id is not null as has_signals,
           s.network, s.account_age,
           exists (select from users su where su.id = vo.user_id and su.suspended_at is not null) as suspended
    from unnest(p_listings) x(id) join listings li on li.id = x.id
    join votes vo on vo.listing_id = li.id
      and vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
      and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')
    left join vote_signals s on s.vote_id = vo.id),
  starts as (
    select v.listing_id, v.id, v.created_at,
           case when lag(v.created_at) over w is null or v.created_at - lag(v.created_at) over w > interval '10 minutes' then 1 else 0 end as starts
    from v window w as (partition by v.listing_id order by v.created_at, v.id)),
  runs as (select s.listing_id, sum(s.starts) over (partition by s.listing_id order by s.created_at, s.id) as run from starts s),
  bursts as (select b.listing_id, sum(b.n)::int as n
             from (select r.listing_id, r.run, count(*) as n from runs r group by 1, 2 having count(*) >= 5) b group by 1),
  nets as (select z.listing_id, max(z.n)::int as top
           from (select v.listing_id, v.network, count(*) as n from v where v.network is not null group by 1, 2) z group by 1),
  disc as (select z.listing_id, jsonb_agg(jsonb_build_object('reason', z.discount_reason, 'votes', z.n) order by z.n desc, z.discount_reason) as d
           from (select v.listing_id, v.discount_reason, count(*)::int as n from v where v.discounted_at is not null group by 1, 2) z group by 1)
  select x.id,
         count(v.id)::int,
         count(v.id) filter (where v.discounted_at is null and not v.suspended)::int,
         count(v.id) filter (where v.has_signals)::int,
         count(v.id) filter (where v.account_age < interval '24 hours')::int,
         coalesce(max(n.top), 0)::int,
         coalesce(max(b.n), 0)::int,
         count(v.id) filter (where v.discounted_at is not null)::int,
         coalesce((select d.d from disc d where d.listing_id = x.id), '[]'::jsonb)
  from unnest(p_listings) x(id)
  left join v on v.listing_id = x.id
  left join nets n on n.listing_id = x.id
  left join bursts b on b.listing_id = x.id
  group by x.id
$function$;
comment on function launch_integrity(p_listings bigint[]) is 'Per listing, over the votes cast during its launch week: all votes, those that count, those with signals, from accounts under 24 hours old, the most from one network, those in bursts (runs of at least 5 votes each within 10 minutes of the one before), and those discounted with their reasons.';

CREATE OR REPLACE FUNCTION public.listing_categories_at_most_four()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if (select count(*) from listing_categories where listing_id = new.listing_id and not is_primary) > 3 then
    raise exception 'a listing has at most 3 extra categories' using errcode = 'check_violation';
  end if;
  return new;
end $function$;
comment on function listing_categories_at_most_four() is 'Trigger on listing_categories: a listing has its primary category and at most 3 extra ones.';

CREATE OR REPLACE FUNCTION public.listing_category_to_stats()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  update listing_stats s set primary_category_id = new.primary_category_id where s.listing_id = new.id;
  return null;
end $function$;
comment on function listing_category_to_stats() is 'Carries a listing''s new primary category into its listing_stats row.';

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

CREATE OR REPLACE FUNCTION public.listing_facets(p_stage text, p_country text, p_pricing_model text)
 RETURNS TABLE(facet text, value text)
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select x.facet, x.value from (values ('stage', p_stage), ('country', p_country), ('pricing', lower(p_pricing_model))) x(facet, value)
  where x.value is not null
$function$;
comment on function listing_facets(p_stage text, p_country text, p_pricing_model text) is 'The facets a listing is counted under in listing_facet_counts: its stage, country and pricing model in lower case.';

CREATE OR REPLACE FUNCTION public.listing_stats_category()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  new.primary_category_id := (select l.primary_category_id from listings l where l.id = new.listing_id);
  return new;
end $function$;
comment on function listing_stats_category() is 'Sets a listing_stats row''s primary category from its listing as the row is inserted.';

CREATE OR REPLACE FUNCTION public.listing_summaries(ids bigint[], profile_base text)
 RETURNS SETOF json
 LANGUAGE sql
 STABLE PARALLEL SAFE ROWS 1
AS $function$
  select coalesce((
    select json_agg(json_build_object(
      'id', l.id::int, 'slug', l.slug, 'name', l.name, 'url', l.url, 'profile_url', profile_base || l.slug,
      'tagline', l.tagline, 'logo_url', l.logo_url, 'status', l.status, 'plan', l.plan,
      'category', case when c.id is null then null else json_build_object('slug', c.slug, 'name', c.name) end,
      'pricing_model', l.pricing_model, 'country', l.country,
      'launch_week', to_char(l.launch_week, 'YYYY-MM-DD'),
      'launched_at', to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'votes', coalesce(s.votes, 0)::int, 'follows', coalesce(s.follows, 0)::int, 'views', coalesce(s.views, 0)::int)
      order by x.ord)
    from unnest(ids) with ordinality as x(id, ord)
    join listings l on l.id = x.id
    left join categories c on c.id = l.primary_category_id
    left join listing_stats s on s.listing_id = l.id), '[]'::json)
$function$;
comment on function listing_summaries(ids bigint[], profile_base text) is 'One row: the summaries of the listings ids names, in their order, as a JSON array (profile_base: the site''s listing URL, slug appended).';

CREATE OR REPLACE FUNCTION public.next_document_number(p_site integer, p_kind text, p_year integer)
 RETURNS integer
 LANGUAGE sql
AS $function$
  insert into document_counters (site_id, kind, year, last_number) values (p_site, p_kind, p_year, 1)
  on conflict (site_id, kind, year) do update set last_number = document_counters.last_number + 1
  returning last_number
$function$;
comment on function next_document_number(p_site integer, p_kind text, p_year integer) is 'Allocates the next number of a kind of document for a seller and year. The counter row stays locked until the caller''s transaction ends, and a rolled-back transaction gives its number back: call it in the transaction that stores the document.';

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

CREATE OR REPLACE FUNCTION public.note_category_parent()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into listing_stats_dirty
    select lc.listing_id from listing_categories lc
    where lc.category_id in (select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id)
    union
    select l.id from listings l
    where l.primary_category_id in (select n.id from new_rows n join old_rows o on o.id = n.id where n.parent_id is distinct from o.parent_id);
  return null;
end $function$;
comment on function note_category_parent() is 'Trigger: notes the listings of categories whose parent a statement changed.';

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

CREATE OR REPLACE FUNCTION public.note_listing_activity()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op <> 'DELETE' then insert into listing_stats_dirty select distinct listing_id from new_rows; end if;
  if tg_op <> 'INSERT' then insert into listing_stats_dirty select distinct listing_id from old_rows; end if;
  return null;
end $function$;
comment on function note_listing_activity() is 'Trigger: notes the listings whose votes, follows, views or reviews a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_category()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into listing_stats_dirty
    select n.id from new_rows n join old_rows o on o.id = n.id where n.primary_category_id is distinct from o.primary_category_id;
  return null;
end $function$;
comment on function note_listing_category() is 'Trigger: notes the listings whose primary category a statement changed.';

CREATE OR REPLACE FUNCTION public.note_listing_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' then
    insert into listing_stats_dirty select id from new_rows;
    insert into search_word_deltas
      select w, count(*) from new_rows n cross join search_words_of(n.name, n.tagline, n.keywords, n.description) w
      where n.status in ('live', 'scheduled') group by w;
    insert into listing_count_deltas select site_id, status, count(*) from new_rows group by site_id, status;
    insert into views_dirty values ('mv_board_revenue'), ('mv_board_billboard');
  elsif tg_op = 'DELETE' then
    insert into search_word_deltas
      select w, -count(*) from old_rows o cross join search_words_of(o.name, o.tagline, o.keywords, o.description) w
      where o.status in ('live', 'scheduled') group by w;
    insert into listing_count_deltas select site_id, status, -count(*) from old_rows group by site_id, status;
    -- A deleted listing leaves listing_stats (by cascade) without passing through a refresh: the
    -- boards' and weeks' sizes are recounted at the next one.
    insert into views_dirty values ('mv_board_revenue'), ('mv_board_billboard'), ('board_totals');
  else
    insert into listing_stats_dirty
      select n.id from new_rows n join old_rows o on o.id = n.id
      where (n.site_id, n.status, n.launch_week, n.launched_at, n.owner_user_id, n.company_id)
            is distinct from (o.site_id, o.status, o.launch_week, o.launched_at, o.owner_user_id, o.company_id);
    if exists (select from new_rows n join old_rows o on o.id = n.id
               where (n.site_id, n.status, n.company_id) is distinct from (o.site_id, o.status, o.company_id)) then
      insert into views_dirty values ('mv_board_revenue'), ('mv_board_billboard');
      insert into listing_count_deltas
        select x.site_id, x.status, sum(x.d) from new_rows n join old_rows o on o.id = n.id
        cross join lateral (values (n.site_id, n.status, 1), (o.site_id, o.status, -1)) x(site_id, status, d)
        where (n.site_id, n.status) is distinct from (o.site_id, o.status)
        group by x.site_id, x.status having sum(x.d) <> 0;
    end if;
    -- The words a listing gains count +1, those it loses -1 (a listing's words are a set).
    insert into search_word_deltas
      select x.w, sum(x.d) from (
        select w, 1 as d from new_rows n join old_rows o on o.id = n.id
          cross join search_words_of(n.name, n.tagline, n.keywords, n.description) w
          where n.status in ('live', 'scheduled')
            and (n.status, n.name, n.tagline, n.keywords, n.description) is distinct from (o.status, o.name, o.tagline, o.keywords, o.description)
        union all
        select w, -1 from new_rows n join old_rows o on o.id = n.id
          cross join search_words_of(o.name, o.tagline, o.keywords, o.description) w
          where o.status in ('live', 'scheduled')
            and (n.status, n.name, n.tagline, n.keywords, n.description) is distinct from (o.status, o.name, o.tagline, o.keywords, o.description)
      ) x group by x.w having sum(x.d) <> 0;
  end if;
  return null;
end $function$;
comment on function note_listing_change() is 'Trigger: notes a statement''s changed listings, their words and status counts, and the views built on listings.';

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

CREATE OR REPLACE FUNCTION public.note_listing_facet_moves()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' then
    insert into listing_facet_count_deltas
      select n.site_id, x.facet, x.value, count(*) from new_rows n cross join listing_facets(n.stage, n.country, n.pricing_model) x
      where n.status = 'live' group by n.site_id, x.facet, x.value;
  elsif tg_op = 'DELETE' then
    insert into listing_facet_count_deltas
      select o.site_id, x.facet, x.value, -count(*) from old_rows o cross join listing_facets(o.stage, o.country, o.pricing_model) x
      where o.status = 'live' group by o.site_id, x.facet, x.value;
  else
    insert into listing_facet_count_deltas
      select y.site_id, x.facet, x.value, sum(y.d) from new_rows n join old_rows o on o.id = n.id
      cross join lateral (values (n.site_id, n.status, n.stage, n.country, n.pricing_model, 1),
                                 (o.site_id, o.status, o.stage, o.country, o.pricing_model, -1)) y(site_id, status, stage, country, pricing_model, d)
      cross join listing_facets(y.stage, y.country, y.pricing_model) x
      where (n.site_id, n.status, n.stage, n.country, lower(n.pricing_model))
            is distinct from (o.site_id, o.status, o.stage, o.country, lower(o.pricing_model))
        and y.status = 'live'
      group by y.site_id, x.facet, x.value having sum(y.d) <> 0;
  end if;
  return null;
end $function$;
comment on function note_listing_facet_moves() is 'Trigger: notes the live listings a statement moved into or out of a site''s stage, country or pricing model.';

CREATE OR REPLACE FUNCTION public.note_listing_lexemes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' then
    insert into search_lexeme_deltas
      select x, count(*) from new_rows n cross join unnest(tsvector_to_array(n.search)) x group by x;
  elsif tg_op = 'DELETE' then
    insert into search_lexeme_deltas
      select x, -count(*) from old_rows o cross join unnest(tsvector_to_array(o.search)) x group by x;
  else
    insert into search_lexeme_deltas
      select x.lexeme, sum(x.d) from (
        select l as lexeme, 1 as d from new_rows n join old_rows o on o.id = n.id
          cross join unnest(tsvector_to_array(n.search)) l where n.search is distinct from o.search
        union all
        select l, -1 from new_rows n join old_rows o on o.id = n.id
          cross join unnest(tsvector_to_array(o.search)) l where n.search is distinct from o.search
      ) x group by x.lexeme having sum(x.d) <> 0;
  end if;
  return null;
end $function$;
comment on function note_listing_lexemes() is 'Trigger: records the lexemes of listings.search a statement added or removed.';

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

CREATE OR REPLACE FUNCTION public.note_primary_category_moves()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  if tg_op = 'INSERT' then
    insert into primary_category_count_deltas
      select site_id, primary_category_id, count(*) from new_rows
      where status = 'live' and primary_category_id is not null group by site_id, primary_category_id;
  elsif tg_op = 'DELETE' then
    insert into primary_category_count_deltas
      select site_id, primary_category_id, -count(*) from old_rows
      where status = 'live' and primary_category_id is not null group by site_id, primary_category_id;
  else
    insert into primary_category_count_deltas
      select x.site_id, x.category_id, sum(x.d) from new_rows n join old_rows o on o.id = n.id
      cross join lateral (values (n.site_id, n.primary_category_id, n.status, 1), (o.site_id, o.primary_category_id, o.status, -1))
        x(site_id, category_id, status, d)
      where (n.site_id, n.status, n.primary_category_id) is distinct from (o.site_id, o.status, o.primary_category_id)
        and x.status = 'live' and x.category_id is not null
      group by x.site_id, x.category_id having sum(x.d) <> 0;
  end if;
  return null;
end $function$;
comment on function note_primary_category_moves() is 'Trigger: notes the live listings a statement moved into or out of a site and primary category.';

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

CREATE OR REPLACE FUNCTION public.note_view_source()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  insert into views_dirty values (tg_argv[0]);
  return null;
end $function$;
comment on function note_view_source() is 'Trigger: notes that the materialized view named in the trigger''s argument must be refreshed.';

CREATE OR REPLACE FUNCTION public.planned_tsqueries(terms text[], near text[], near_group integer[], known text[], narrow_group integer, OUT ranked tsquery, OUT matched tsquery, OUT narrow tsquery)
 RETURNS record
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
declare
  term text;
  alt tsquery;
  alt_matched tsquery;
  near_q tsquery;
begin
  for g in 1 .. coalesce(cardinality(terms), 0) loop
    term := terms[g];
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
    -- Cast, not to_tsquery: each known lexeme as it is indexed, never re-parsed into several.
    alt_matched := case when known[g] is null then alt else known[g]::tsquery || plainto_tsquery('english', term) end;
    for i in 1 .. coalesce(cardinality(near), 0) loop
      continue when near_group[i] <> g;
      near_q := to_tsquery('simple', quote_literal(near[i])) || plainto_tsquery('english', near[i]);
      alt := alt || near_q;
      alt_matched := alt_matched || near_q;
    end loop;
    ranked := case when ranked is null then alt else ranked && alt end;
    matched := case when matched is null then alt_matched else matched && alt_matched end;
    if g = narrow_group then
      narrow := alt_matched;
    end if;
  end loop;
end $function$;
comment on function planned_tsqueries(terms text[], near text[], near_group integer[], known text[], narrow_group integer, OUT ranked tsquery, OUT matched tsquery, OUT narrow tsquery) is 'A search''s typo-tolerant tsqueries from the choices the edge made (sql/queries/typo-plan.ts): ranked (each term also as a prefix), matched (a prefix spelled out as its known lexemes when given) and narrow (the group of one term, far rarer than another, for the index to find alone; null otherwise). terms: one group each, in order; near and near_group: each group''s near words; known: per group, tsquery text or null; narrow_group: or null.';

CREATE OR REPLACE FUNCTION public.primary_category_live(p_site integer, p_category integer)
 RETURNS integer
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select (coalesce((select listings from primary_category_counts where site_id = p_site and category_id = p_category), 0)
        + coalesce((select sum(delta) from primary_category_count_deltas where site_id = p_site and category_id = p_category), 0))::int
$function$;
comment on function primary_category_live(p_site integer, p_category integer) is 'Live listings of a site whose primary category (listings.primary_category_id) is this one, as of now.';

CREATE OR REPLACE FUNCTION public.purge_vote_signals()
 RETURNS integer
 LANGUAGE sql
AS $function$
  with d as (delete from vote_signals where created_at < now() - interval '400 days' returning 1) select count(*)::int from d
$function$;
comment on function purge_vote_signals() is 'Deletes vote signals older than 400 days (the votes themselves stay).';

CREATE OR REPLACE FUNCTION public.reaward_week(p_site integer, p_week date)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
begin
  perform refresh_listing_stats();
  if p_week + 7 > (now() at time zone 'utc')::date then return 0; end if;
  -- Awards are derived from weekly_ranking; the audit row of the change that called this keeps what they were.
  delete from awards where site_id = p_site and week = p_week;
  return award_week(p_site, p_week);
end $function$;
comment on function reaward_week(p_site integer, p_week date) is 'Brings counters up to date and grants a finished week''s awards again from weekly_ranking (after votes were discounted or restored).';

CREATE OR REPLACE FUNCTION public.record_listing_view(p_listing bigint, p_visitor text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
declare
  today date := (now() at time zone 'utc')::date;
  s text;
  h bytea;
  fresh int;
begin
  select salt into s from view_salts where day = today;
  if s is null then
    insert into view_salts (day, salt) values (today, gen_random_uuid()::text || gen_random_uuid()::text)
      on conflict (day) do nothing;
    select salt into s from view_salts where day = today;
    delete from view_salts where day < today;
    delete from listing_view_visitors where day < today;
  end if;
  h := sha256(convert_to(s || ':' || p_listing::text || ':' || p_visitor, 'UTF8'));
  insert into listing_view_visitors (listing_id, day, visitor) values (p_listing, today, h) on conflict do nothing;
  get diagnostics fresh = row_count;
  if fresh = 0 then return false; end if;
  insert into listing_views (listing_id, day, views) values (p_listing, today, 1)
    on conflict (listing_id, day) do update set views = listing_views.views + 1;
  return true;
end $function$;
comment on function record_listing_view(p_listing bigint, p_visitor text) is 'Counts a view of a listing at most once per visitor per UTC day; the visitor is hashed with the day''s salt, never stored raw. Returns true when counted.';

CREATE OR REPLACE FUNCTION public.record_vote(p_listing bigint, p_user bigint, p_network text, p_ua_family text, p_sign_in text, p_visitor text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
declare
  r text;
  today date := (now() at time zone 'utc')::date;
begin
  r := cast_vote(p_listing, p_user);
  if r <> 'voted' then return r; end if;
  insert into vote_signals (vote_id, account_age, sign_in, network, ua_family, visited_before)
  select v.id, greatest(v.created_at - u.created_at, interval '0'), p_sign_in, vote_network_hash(p_network), p_ua_family,
         -- The listing page counted this visitor today (record_listing_view's hash of the same visitor).
         exists (select from view_salts s join listing_view_visitors x on x.day = s.day
                 where s.day = today and x.listing_id = p_listing
                   and x.visitor = sha256(convert_to(s.salt || ':' || p_listing::text || ':' || p_visitor, 'UTF8')))
  from votes v join users u on u.id = v.user_id
  where v.listing_id = p_listing and v.user_id = p_user
  on conflict (vote_id) do nothing;
  return r;
end $function$;
comment on function record_vote(p_listing bigint, p_user bigint, p_network text, p_ua_family text, p_sign_in text, p_visitor text) is 'cast_vote, and the first time a person votes for the listing the vote''s signals (vote_signals). Returns what cast_vote returns.';

CREATE OR REPLACE FUNCTION public.refresh_category_members(recount boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  create temp table members_before on commit drop as
    select m.* from noted n cross join lateral (select * from category_members m where m.listing_id = n.listing_id offset 0) m;
  create temp table members_after on commit drop as
    with tagged as (
      select lc.listing_id, lc.category_id from noted n join listing_categories lc on lc.listing_id = n.listing_id
      union
      select l.id, l.primary_category_id from noted n join listings l on l.id = n.listing_id where l.primary_category_id is not null)
    select f.site_id, x.category_id, f.listing_id, bool_or(x.direct) as direct, f.votes, f.launched_at
    from fresh f
    join (select t.listing_id, t.category_id, true as direct from tagged t
          union all
          select t.listing_id, c.parent_id, false from tagged t join categories c on c.id = t.category_id where c.parent_id is not null) x
      on x.listing_id = f.listing_id
    where f.live
    group by f.site_id, x.category_id, f.listing_id, f.votes, f.launched_at;

  delete from category_members m using members_before b
  where m.category_id = b.category_id and m.listing_id = b.listing_id
    and not exists (select from members_after a where a.category_id = b.category_id and a.listing_id = b.listing_id);
  insert into category_members (category_id, listing_id, site_id, direct, votes, launched_at)
  select category_id, listing_id, site_id, direct, votes, launched_at from members_after
  on conflict (category_id, listing_id) do update set
    site_id = excluded.site_id, direct = excluded.direct, votes = excluded.votes, launched_at = excluded.launched_at
  where (category_members.site_id, category_members.direct, category_members.votes, category_members.launched_at)
        is distinct from (excluded.site_id, excluded.direct, excluded.votes, excluded.launched_at);

  if recount then
    delete from category_counts;
    insert into category_counts (site_id, category_id, listings, direct)
    select site_id, category_id, count(*), count(*) filter (where direct) from category_members group by site_id, category_id;
  else
    merge into category_counts k
    using (select site_id, category_id, sum(n)::int as listings, sum(d)::int as direct from (
             select site_id, category_id, 1 as n, direct::int as d from members_after
             union all
             select site_id, category_id, -1, -direct::int from members_before) x
           group by site_id, category_id having sum(n) <> 0 or sum(d) <> 0) m
    on k.site_id = m.site_id and k.category_id = m.category_id
    when matched and k.listings + m.listings = 0 then delete
    when matched then update set listings = k.listings + m.listings, direct = k.direct + m.direct
    when not matched then insert (site_id, category_id, listings, direct) values (m.site_id, m.category_id, m.listings, m.direct);
  end if;
  drop table members_before;
  drop table members_after;
end $function$;
comment on function refresh_category_members(recount boolean) is 'Moves category_members and category_counts for the listings noted by refresh_listing_stats (recounting the counts when asked).';

CREATE OR REPLACE FUNCTION public.refresh_directory_views()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  perform refresh_search_lexemes();
  perform refresh_listing_counts();
  perform refresh_primary_category_counts();
  perform refresh_listing_facet_counts();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
  if 'mv_board_billboard' = any(stale) then refresh materialized view concurrently mv_board_billboard; end if;
  if 'mv_board_revenue' = any(stale) then refresh materialized view concurrently mv_board_revenue; end if;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $function$;
comment on function refresh_directory_views() is 'Brings counters, rankings and the views whose sources changed up to date, and tells edges to drop cached reads.';

CREATE OR REPLACE FUNCTION public.refresh_listing_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_listing_counts'));
  create temp table count_moves on commit drop as
    with d as (delete from listing_count_deltas returning site_id, status, delta)
    select site_id, status, sum(delta)::int as delta from d group by site_id, status having sum(delta) <> 0;
  merge into listing_counts c using count_moves m on c.site_id = m.site_id and c.status = m.status
  when matched and c.listings + m.delta = 0 then delete
  when matched then update set listings = c.listings + m.delta
  when not matched then insert (site_id, status, listings) values (m.site_id, m.status, m.delta);
  drop table count_moves;
end $function$;
comment on function refresh_listing_counts() is 'Applies the listings that entered or left a site and status since the last call to listing_counts.';

CREATE OR REPLACE FUNCTION public.refresh_listing_facet_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_listing_facet_counts'));
  create temp table facet_moves on commit drop as
    with d as (delete from listing_facet_count_deltas returning site_id, facet, value, delta)
    select site_id, facet, value, sum(delta)::int as delta from d group by site_id, facet, value having sum(delta) <> 0;
  merge into listing_facet_counts c using facet_moves m on c.site_id = m.site_id and c.facet = m.facet and c.value = m.value
  when matched and c.listings + m.delta = 0 then delete
  when matched then update set listings = c.listings + m.delta
  when not matched then insert (site_id, facet, value, listings) values (m.site_id, m.facet, m.value, m.delta);
  drop table facet_moves;
end $function$;
comment on function refresh_listing_facet_counts() is 'Applies the live listings that entered or left a site''s stage, country or pricing model since the last call to listing_facet_counts.';

CREATE OR REPLACE FUNCTION public.refresh_listing_stats()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  recount boolean;
begin
  -- One refresh at a time: a second caller waits, then finds little left to do.
  perform pg_advisory_xact_lock(hashtext('refresh_listing_stats'));
  with d as (delete from views_dirty where view_name = 'board_totals' returning 1) select count(*) > 0 into recount from d;
  create temp table noted on commit drop as
    with d as (delete from listing_stats_dirty returning listing_id) select distinct listing_id from d;
  if not recount and not exists (select from noted) then
    drop table noted;
    return;
  end if;
  alter table noted add primary key (listing_id);
  analyze noted;

  -- The noted listings' rows as they were. Probed one by one (offset 0 keeps the planner from
  -- hashing all of listing_stats for a few thousand rows).
  create temp table before on commit drop as
    select s.* from noted n cross join lateral (select * from listing_stats s where s.listing_id = n.listing_id offset 0) s;
  create temp table rated_before on commit drop as
    select r.* from noted n cross join lateral (select * from listing_domain_rating r where r.listing_id = n.listing_id offset 0) r;

  create temp table fresh on commit drop as
  select l.id as listing_id, l.site_id, l.status = 'live' as live, l.launch_week, l.launched_at,
         coalesce(v.votes, 0)::int as votes, coalesce(v.week_votes, 0)::int as week_votes,
         coalesce(v.trend_log, '-infinity')::float8 as trend_log,
         coalesce(f.follows, 0)::int as follows, coalesce(w.views, 0)::bigint as views,
         r.rating_avg, coalesce(r.rating_count, 0)::int as rating_count
  from noted n join listings l on l.id = n.listing_id
  left join (
    select z.listing_id, count(*) as votes, count(*) filter (where z.in_week) as week_votes,
           -- log-sum-exp: shifted by the largest term, so no exp() overflows
           max(z.top) + ln(sum(exp(greatest(z.x - z.top, -700)))) as trend_log
    from (select vo.listing_id, trend_x(vo.created_at) as x,
                 max(trend_x(vo.created_at)) over (partition by vo.listing_id) as top,
                 vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
                   and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc') as in_week
          -- Only the votes and follows that count (80_views.sql).
          from noted n2 join counted_votes vo on vo.listing_id = n2.listing_id join listings li on li.id = vo.listing_id) z
    group by z.listing_id) v on v.listing_id = l.id
  left join (select fo.listing_id, count(*) as follows from noted n3 join counted_follows fo on fo.listing_id = n3.listing_id
             group by fo.listing_id) f on f.listing_id = l.id
  left join (select lv.listing_id, sum(lv.views) as views from noted n4 join listing_views lv on lv.listing_id = n4.listing_id
             group by lv.listing_id) w on w.listing_id = l.id
  left join (select rv.listing_id, round(avg(rv.rating)::numeric, 2)::float8 as rating_avg, count(*) as rating_count
             from noted n5 join reviews rv on rv.listing_id = n5.listing_id join listings ol on ol.id = rv.listing_id
             where not rv.flagged and rv.user_id is distinct from ol.owner_user_id
               and not exists (select from users su where su.id = rv.user_id and su.suspended_at is not null)
             group by rv.listing_id) r on r.listing_id = l.id;

  -- The latest Domain Rating of the noted listings' companies and its four-week change.
  create temp table rated on commit drop as
  select l.id as listing_id, l.site_id, l.status = 'live' as live, la.rating, la.measured_on, la.rating - e.rating as trend
  from noted n join listings l on l.id = n.listing_id
  cross join lateral (select d.rating, d.measured_on from domain_ratings d where d.company_id = l.company_id
                      order by d.measured_on desc limit 1) la
  left join lateral (select d.rating from domain_ratings d where d.company_id = l.company_id and d.measured_on <= la.measured_on - 28
                     order by d.measured_on desc limit 1) e on true;

  insert into listing_stats select * from fresh
  on conflict (listing_id) do update set
    site_id = excluded.site_id, live = excluded.live, launch_week = excluded.launch_week, launched_at = excluded.launched_at,
    votes = excluded.votes, week_votes = excluded.week_votes, trend_log = excluded.trend_log, follows = excluded.follows,
    views = excluded.views, rating_avg = excluded.rating_avg, rating_count = excluded.rating_count
  where (listing_stats.*) is distinct from (excluded.*);

  delete from listing_domain_rating r using noted n
  where r.listing_id = n.listing_id and not exists (select from rated x where x.listing_id = r.listing_id);
  insert into listing_domain_rating (listing_id, site_id, live, rating, measured_on, trend)
  select listing_id, site_id, live, rating, measured_on, trend from rated
  on conflict (listing_id) do update set site_id = excluded.site_id, live = excluded.live, rating = excluded.rating,
    measured_on = excluded.measured_on, trend = excluded.trend
  where (listing_domain_rating.*) is distinct from (excluded.*);

  perform refresh_category_members(recount);

  -- After a bulk load (a seed, a migration), fresh planner statistics: without them the boards'
  -- pages plan as if a handful of rows were ranked, and sort all of them.
  if (select count(*) from noted) > 10000 then
    analyze listing_stats;
    analyze listing_domain_rating;
    analyze category_members;
  end if;

  if recount then
    delete from board_totals;
    insert into board_totals (site_id, board, total)
    select site_id, 'community-all-time', count(*) from listing_stats where live and votes > 0 group by site_id
    union all
    select site_id, 'domain-rating', count(*) from listing_domain_rating where live group by site_id;
    delete from week_totals;
    insert into week_totals (site_id, week, total)
    select site_id, launch_week, count(*) from listing_stats where live and launch_week is not null group by site_id, launch_week;
  else
    -- Each size moves by what the noted listings count in it now less what they counted before.
    insert into board_totals (site_id, board, total)
    select x.site_id, x.board, sum(x.d) from (
      select site_id, 'community-all-time' as board, 1 as d from fresh where live and votes > 0
      union all select site_id, 'community-all-time', -1 from before where live and votes > 0
      union all select site_id, 'domain-rating', 1 from rated where live
      union all select site_id, 'domain-rating', -1 from rated_before where live) x
    group by x.site_id, x.board having sum(x.d) <> 0
    on conflict (site_id, board) do update set total = board_totals.total + excluded.total;
    create temp table week_moves on commit drop as
    select x.site_id, x.week, sum(x.d)::int as delta from (
      select site_id, launch_week as week, 1 as d from fresh where live and launch_week is not null
      union all select site_id, launch_week, -1 from before where live and launch_week is not null) x
    group by x.site_id, x.week having sum(x.d) <> 0;
    merge into week_totals t using week_moves m on t.site_id = m.site_id and t.week = m.week
    when matched and t.total + m.delta = 0 then delete
    when matched then update set total = t.total + m.delta
    when not matched then insert (site_id, week, total) values (m.site_id, m.week, m.delta);
    drop table week_moves;
  end if;

  drop table noted;
  drop table before;
  drop table rated_before;
  drop table fresh;
  drop table rated;
end $function$;
comment on function refresh_listing_stats() is 'Recomputes (counting only votes not discounted and reviews not hidden, neither by a suspended person) listing_stats (and Domain Ratings, category pages, board and week sizes) for the listings noted since the last call.';

CREATE OR REPLACE FUNCTION public.refresh_primary_category_counts()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_primary_category_counts'));
  create temp table primary_category_moves on commit drop as
    with d as (delete from primary_category_count_deltas returning site_id, category_id, delta)
    select site_id, category_id, sum(delta)::int as delta from d group by site_id, category_id having sum(delta) <> 0;
  merge into primary_category_counts c using primary_category_moves m on c.site_id = m.site_id and c.category_id = m.category_id
  when matched and c.listings + m.delta = 0 then delete
  when matched then update set listings = c.listings + m.delta
  when not matched then insert (site_id, category_id, listings) values (m.site_id, m.category_id, m.delta);
  drop table primary_category_moves;
end $function$;
comment on function refresh_primary_category_counts() is 'Applies the live listings that entered or left a site and primary category since the last call to primary_category_counts.';

CREATE OR REPLACE FUNCTION public.refresh_search_lexemes()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  moved bigint;
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_lexemes'));
  create temp table lexeme_moves on commit drop as
    with d as (delete from search_lexeme_deltas returning lexeme, delta)
    select lexeme, sum(delta)::int as delta from d group by lexeme having sum(delta) <> 0;
  merge into search_lexemes s using lexeme_moves m on s.lexeme = m.lexeme
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (lexeme, listings) values (m.lexeme, m.delta);
  get diagnostics moved = row_count;
  if moved > 0 then
    perform nextval('search_vocabulary_generation');
  end if;
  drop table lexeme_moves;
end $function$;
comment on function refresh_search_lexemes() is 'Applies the lexemes listings gained or lost since the last call to search_lexemes, moving search_vocabulary_generation when any changed.';

CREATE OR REPLACE FUNCTION public.refresh_search_words()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  moved bigint;
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_words'));
  create temp table word_moves on commit drop as
    with d as (delete from search_word_deltas returning word, delta)
    select word, sum(delta)::int as delta from d group by word having sum(delta) <> 0;
  merge into search_words s using word_moves m on s.word = m.word
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (word, listings) values (m.word, m.delta);
  get diagnostics moved = row_count;
  if moved > 0 then
    perform nextval('search_vocabulary_generation');
  end if;
  drop table word_moves;
end $function$;
comment on function refresh_search_words() is 'Applies the words listings gained or lost since the last call to search_words, moving search_vocabulary_generation when any changed.';

CREATE OR REPLACE FUNCTION public.restore_user(p_user bigint)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
begin
  update users set suspended_at = null, suspended_reason = null where id = p_user and suspended_at is not null;
  if not found then return false; end if;
  insert into listing_stats_dirty
    select listing_id from votes where user_id = p_user union select listing_id from reviews where user_id = p_user
    union select listing_id from follows where user_id = p_user;
  perform review_recheck(review_id) from review_flags where user_id = p_user;
  return true;
end $function$;
comment on function restore_user(p_user bigint) is 'Lifts a suspension: the account''s votes, reviews, follows and flags count again (it signs in anew; ended sessions and revoked keys stay ended).';

CREATE OR REPLACE FUNCTION public.review_recheck(p_review bigint)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
declare
  hide boolean;
begin
  select case when r.moderation = 'removed' then true
              else (select count(*) from review_flags f join users u on u.id = f.user_id
                    where f.review_id = r.id and f.resolved_at is null and u.suspended_at is null
                      and f.created_at - u.created_at >= make_interval(days => s.review_flagger_min_age_days)) >= s.review_hide_flags end
    into hide
  from reviews r join listings l on l.id = r.listing_id join sites s on s.id = l.site_id
  where r.id = p_review;
  if hide is null then return null; end if;
  update reviews set flagged = hide where id = p_review and flagged is distinct from hide;
  return hide;
end $function$;
comment on function review_recheck(p_review bigint) is 'Sets reviews.flagged (hidden) from the site team''s decision and the unresolved flags of distinct, unsuspended accounts old enough when they flagged; returns whether the review is hidden.';

CREATE OR REPLACE FUNCTION public.search_words_of(p_name text, p_tagline text, p_keywords text[], p_description text)
 RETURNS SETOF text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select w from unnest(tsvector_to_array(to_tsvector('simple',
    coalesce(p_name, '') || ' ' || coalesce(p_tagline, '') || ' ' || words_of(p_keywords) || ' ' || coalesce(left(p_description, 2000), '')))) w
  where length(w) between 3 and 40 and w !~ '^[0-9]+$'
$function$;
comment on function search_words_of(p_name text, p_tagline text, p_keywords text[], p_description text) is 'The words of a listing''s text that typo correction knows.';

CREATE OR REPLACE FUNCTION public.set_gin_pending_lists(enabled boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  ix regclass;
begin
  for ix in
    select c.oid::regclass from pg_class c
    join pg_am a on a.oid = c.relam and a.amname = 'gin'
    where c.relkind = 'i' and c.relnamespace = current_schema()::regnamespace
  loop
    execute format('alter index %s set (fastupdate = %s)', ix, case when enabled then 'on' else 'off' end);
    if not enabled then
      perform gin_clean_pending_list(ix);
    end if;
  end loop;
end $function$;
comment on function set_gin_pending_lists(enabled boolean) is 'Turns the pending list (fastupdate) of every GIN index of the schema on, for a bulk load, or off, merging what it holds: off is how searches want them (migration 0020).';

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

CREATE OR REPLACE FUNCTION public.suspend_user(p_user bigint, p_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
begin
  update users set suspended_at = now(), suspended_reason = p_reason where id = p_user and suspended_at is null;
  if not found then return false; end if;
  update sessions set ended_at = now() where user_id = p_user and ended_at is null;
  update api_keys set revoked_at = now() where user_id = p_user and revoked_at is null;
  update oauth_tokens set revoked_at = now()
    where revoked_at is null and grant_id in (select id from oauth_grants where user_id = p_user);
  update oauth_grants set revoked_at = now() where user_id = p_user and revoked_at is null;
  insert into listing_stats_dirty
    select listing_id from votes where user_id = p_user union select listing_id from reviews where user_id = p_user
    union select listing_id from follows where user_id = p_user;
  perform review_recheck(review_id) from review_flags where user_id = p_user;
  return true;
end $function$;
comment on function suspend_user(p_user bigint, p_reason text) is 'Suspends an account: ends its sessions, revokes its API keys and OAuth grants and tokens; its votes, reviews, follows and flags stop counting (kept).';

CREATE OR REPLACE FUNCTION public.suspicious_vote_clusters(p_site integer, p_week date)
 RETURNS TABLE(listing_id bigint, kind text, votes integer, new_accounts integer, unvisited integer, first_vote timestamp with time zone, last_vote timestamp with time zone, accounts_created_within interval, vote_ids bigint[])
 LANGUAGE sql
 STABLE
AS $function$
  with v as (
    select vo.id, vo.listing_id, vo.created_at, u.created_at as account_created, s.network, s.visited_before
    from listings li
    join votes vo on vo.listing_id = li.id
      and vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
      and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')
    join users u on u.id = vo.user_id
    left join vote_signals s on s.vote_id = vo.id
    where li.site_id = p_site and li.launch_week = p_week and vo.discounted_at is null),
  -- One network, one burst: votes from the same network each within 10 minutes of the one before.
  net as (
    select v.*, case when lag(v.created_at) over w is null or v.created_at - lag(v.created_at) over w > interval '10 minutes' then 1 else 0 end as starts
    from v where v.network is not null window w as (partition by v.listing_id, v.network order by v.created_at, v.id)),
  net_runs as (select n.*, sum(n.starts) over (partition by n.listing_id, n.network order by n.created_at, n.id) as run from net n),
  -- Accounts created together: voters under a week old whose accounts were made within 10 minutes of the one before.
  acc as (
    select v.*, case when lag(v.account_created) over w is null or v.account_created - lag(v.account_created) over w > interval '10 minutes' then 1 else 0 end as starts
    from v where v.created_at - v.account_created < interval '7 days' window w as (partition by v.listing_id order by v.account_created, v.id)),
  acc_runs as (select a.*, sum(a.starts) over (partition by a.listing_id order by a.account_created, a.id) as run from acc a),
  -- No prior visit, one burst: votes from people who had not opened the listing, each within 10 minutes of the one before.
  cold as (
    select v.*, case when lag(v.created_at) over w is null or v.created_at - lag(v.created_at) over w > interval '10 minutes' then 1 else 0 end as starts
    from v where v.visited_before = false window w as (partition by v.listing_id order by v.created_at, v.id)),
  cold_runs as (select c.*, sum(c.starts) over (partition by c.listing_id order by c.created_at, c.id) as run from cold c),
  clusters as (
    select r.listing_id, 'network' as kind, array_agg(r.id order by r.id) as ids from net_runs r group by r.listing_id, r.network, r.run having count(*) >= 5
    union all
    select r.listing_id, 'accounts', array_agg(r.id order by r.id) from acc_runs r group by r.listing_id, r.run having count(*) >= 5
    union all
    select r.listing_id, 'no_visit', array_agg(r.id order by r.id) from cold_runs r group by r.listing_id, r.run having count(*) >= 10)
  select c.listing_id, c.kind, cardinality(c.ids), s.new_accounts, s.unvisited, s.first_vote, s.last_vote, s.within, c.ids
  from clusters c
  cross join lateral (
    select count(*) filter (where v.created_at - v.account_created < interval '24 hours')::int as new_accounts,
           count(*) filter (where v.visited_before = false)::int as unvisited,
           min(v.created_at) as first_vote, max(v.created_at) as last_vote,
           max(v.account_created) - min(v.account_created) as within
    from v where v.id = any (c.ids)) s
  order by cardinality(c.ids) desc, c.listing_id, c.kind, s.first_vote
$function$;
comment on function suspicious_vote_clusters(p_site integer, p_week date) is 'Clusters among the counted votes on a week''s launches (cast during the week): at least 5 from one network in one burst, at least 5 from accounts under a week old created together, or at least 10 without a prior visit in one burst. Each with its vote ids.';

CREATE OR REPLACE FUNCTION public.trend_x(t timestamp with time zone)
 RETURNS double precision
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select (extract(epoch from t)::float8 - 1735689600) * ln(2) / 259200
$function$;
comment on function trend_x(t timestamp with time zone) is 'A vote''s weight on the log scale of trend_log: ln(2) per 3 days since 2025-01-01.';

CREATE OR REPLACE FUNCTION public.trending_now(trend_log double precision)
 RETURNS double precision
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  -- Clamped: exp() of a vote years old would underflow and fail.
  select exp(greatest(trend_log - trend_x(now()), -700))
$function$;
comment on function trending_now(trend_log double precision) is 'The trending score as of now: the sum of 2^(-age / 3 days) over the listing''s votes.';

CREATE OR REPLACE FUNCTION public.vote_network_hash(p_network text)
 RETURNS bytea
 LANGUAGE sql
 STABLE
AS $function$
  -- sha256 over the secret key and the network: the fixed layout leaves no room for extension.
  select case when p_network is null then null
              else sha256(convert_to((select key from vote_network_key) || ':' || p_network, 'UTF8')) end
$function$;
comment on function vote_network_hash(p_network text) is 'The keyed hash of a network prefix (a /24 or /48 written as text) stored in vote_signals.network.';

CREATE OR REPLACE FUNCTION public.words_of(text[])
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ select coalesce(array_to_string($1, ' '), '') $function$;
comment on function words_of(text[]) is 'Keywords joined with spaces for the search vectors: array_to_string is only stable, this is immutable in practice.';

CREATE TRIGGER billboard_contributions_noted AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.billboard_contributions FOR EACH STATEMENT EXECUTE FUNCTION note_view_source('mv_board_billboard');

CREATE TRIGGER categories_doc_emptied AFTER TRUNCATE ON public.categories FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER categories_doc_upd AFTER UPDATE ON public.categories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_category_document();

CREATE TRIGGER categories_parent_noted AFTER UPDATE ON public.categories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_category_parent();

CREATE TRIGGER categories_two_levels BEFORE INSERT OR UPDATE ON public.categories FOR EACH ROW EXECUTE FUNCTION categories_two_levels();

CREATE TRIGGER domain_ratings_doc_del AFTER DELETE ON public.domain_ratings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_rating_document();

CREATE TRIGGER domain_ratings_doc_emptied AFTER TRUNCATE ON public.domain_ratings FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER domain_ratings_doc_ins AFTER INSERT ON public.domain_ratings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_rating_document();

CREATE TRIGGER domain_ratings_doc_upd AFTER UPDATE ON public.domain_ratings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_rating_document();

CREATE TRIGGER domain_ratings_noted_del AFTER DELETE ON public.domain_ratings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_company_rating();

CREATE TRIGGER domain_ratings_noted_ins AFTER INSERT ON public.domain_ratings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_company_rating();

CREATE TRIGGER domain_ratings_noted_upd AFTER UPDATE ON public.domain_ratings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_company_rating();

CREATE TRIGGER follows_noted_del AFTER DELETE ON public.follows REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER follows_noted_ins AFTER INSERT ON public.follows REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER follows_noted_upd AFTER UPDATE ON public.follows REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER founder_stories_doc_del AFTER DELETE ON public.founder_stories REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER founder_stories_doc_emptied AFTER TRUNCATE ON public.founder_stories FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER founder_stories_doc_ins AFTER INSERT ON public.founder_stories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER founder_stories_doc_upd AFTER UPDATE ON public.founder_stories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER founders_doc_emptied AFTER TRUNCATE ON public.founders FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER founders_doc_upd AFTER UPDATE ON public.founders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_founder_document();

CREATE TRIGGER fx_rates_noted AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.fx_rates FOR EACH STATEMENT EXECUTE FUNCTION note_view_source('mv_board_revenue');

CREATE TRIGGER listing_ai_reviews_doc_del AFTER DELETE ON public.listing_ai_reviews REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_ai_reviews_doc_emptied AFTER TRUNCATE ON public.listing_ai_reviews FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_ai_reviews_doc_ins AFTER INSERT ON public.listing_ai_reviews REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_ai_reviews_doc_upd AFTER UPDATE ON public.listing_ai_reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_categories_at_most_four AFTER INSERT OR UPDATE ON public.listing_categories FOR EACH ROW EXECUTE FUNCTION listing_categories_at_most_four();

CREATE TRIGGER listing_categories_doc_del AFTER DELETE ON public.listing_categories REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_categories_doc_emptied AFTER TRUNCATE ON public.listing_categories FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_categories_doc_ins AFTER INSERT ON public.listing_categories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_categories_doc_upd AFTER UPDATE ON public.listing_categories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_categories_noted_del AFTER DELETE ON public.listing_categories REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER listing_categories_noted_ins AFTER INSERT ON public.listing_categories REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER listing_categories_noted_upd AFTER UPDATE ON public.listing_categories REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER listing_faqs_doc_del AFTER DELETE ON public.listing_faqs REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_faqs_doc_emptied AFTER TRUNCATE ON public.listing_faqs FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_faqs_doc_ins AFTER INSERT ON public.listing_faqs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_faqs_doc_upd AFTER UPDATE ON public.listing_faqs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_founders_doc_del AFTER DELETE ON public.listing_founders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_founders_doc_emptied AFTER TRUNCATE ON public.listing_founders FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_founders_doc_ins AFTER INSERT ON public.listing_founders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_founders_doc_upd AFTER UPDATE ON public.listing_founders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_media_doc_del AFTER DELETE ON public.listing_media REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_media_doc_emptied AFTER TRUNCATE ON public.listing_media FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_media_doc_ins AFTER INSERT ON public.listing_media REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_media_doc_upd AFTER UPDATE ON public.listing_media REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_socials_doc_del AFTER DELETE ON public.listing_socials REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_socials_doc_emptied AFTER TRUNCATE ON public.listing_socials FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_socials_doc_ins AFTER INSERT ON public.listing_socials REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_socials_doc_upd AFTER UPDATE ON public.listing_socials REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_stats_category BEFORE INSERT ON public.listing_stats FOR EACH ROW EXECUTE FUNCTION listing_stats_category();

CREATE TRIGGER listing_updates_doc_del AFTER DELETE ON public.listing_updates REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_updates_doc_emptied AFTER TRUNCATE ON public.listing_updates FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER listing_updates_doc_ins AFTER INSERT ON public.listing_updates REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_updates_doc_upd AFTER UPDATE ON public.listing_updates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER listing_views_noted_del AFTER DELETE ON public.listing_views REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER listing_views_noted_ins AFTER INSERT ON public.listing_views REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER listing_views_noted_upd AFTER UPDATE ON public.listing_views REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER listings_category_noted AFTER UPDATE ON public.listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_category();

CREATE TRIGGER listings_category_to_stats AFTER UPDATE OF primary_category_id ON public.listings FOR EACH ROW WHEN ((old.primary_category_id IS DISTINCT FROM new.primary_category_id)) EXECUTE FUNCTION listing_category_to_stats();

CREATE TRIGGER listings_doc_upd AFTER UPDATE ON public.listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_document();

CREATE TRIGGER listings_facets_del AFTER DELETE ON public.listings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_facet_moves();

CREATE TRIGGER listings_facets_ins AFTER INSERT ON public.listings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_facet_moves();

CREATE TRIGGER listings_facets_upd AFTER UPDATE ON public.listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_facet_moves();

CREATE TRIGGER listings_lexemes_del AFTER DELETE ON public.listings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_lexemes();

CREATE TRIGGER listings_lexemes_ins AFTER INSERT ON public.listings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_lexemes();

CREATE TRIGGER listings_lexemes_upd AFTER UPDATE ON public.listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_lexemes();

CREATE TRIGGER listings_noted_del AFTER DELETE ON public.listings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_change();

CREATE TRIGGER listings_noted_ins AFTER INSERT ON public.listings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_change();

CREATE TRIGGER listings_noted_upd AFTER UPDATE ON public.listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_change();

CREATE TRIGGER listings_primary_category_del AFTER DELETE ON public.listings REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_primary_category_moves();

CREATE TRIGGER listings_primary_category_ins AFTER INSERT ON public.listings REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_primary_category_moves();

CREATE TRIGGER listings_primary_category_upd AFTER UPDATE ON public.listings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_primary_category_moves();

CREATE TRIGGER milestones_doc_del AFTER DELETE ON public.milestones REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER milestones_doc_emptied AFTER TRUNCATE ON public.milestones FOR EACH STATEMENT EXECUTE FUNCTION note_documents_emptied();

CREATE TRIGGER milestones_doc_ins AFTER INSERT ON public.milestones REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER milestones_doc_upd AFTER UPDATE ON public.milestones REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_rows();

CREATE TRIGGER revenue_figures_noted AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.revenue_figures FOR EACH STATEMENT EXECUTE FUNCTION note_view_source('mv_board_revenue');

CREATE TRIGGER reviews_noted_del AFTER DELETE ON public.reviews REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER reviews_noted_ins AFTER INSERT ON public.reviews REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER reviews_noted_upd AFTER UPDATE ON public.reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER votes_noted_del AFTER DELETE ON public.votes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER votes_noted_ins AFTER INSERT ON public.votes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

CREATE TRIGGER votes_noted_upd AFTER UPDATE ON public.votes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_listing_activity();

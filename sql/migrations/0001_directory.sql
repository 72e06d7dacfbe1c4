-- The directory's data model: sites, companies, listings and everything public reads show.
create extension if not exists pg_trgm;
create extension if not exists unaccent;

-- array_to_string is only stable; keywords joined with spaces is immutable in practice.
create function words_of(text[]) returns text language sql immutable parallel safe
  as $$ select coalesce(array_to_string($1, ' '), '') $$;

create table sites (
  id serial primary key,
  key text not null unique check (key ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  name text not null check (length(name) <= 200),
  url text not null check (length(url) <= 500),
  purpose text not null default '' check (length(purpose) <= 2000),
  is_self boolean not null default false,
  free_queue_min_weeks int not null default 6 check (free_queue_min_weeks between 1 and 52),
  free_queue_max_weeks int not null default 8 check (free_queue_max_weeks between 1 and 52),
  launch_slots_per_week int not null default 20 check (launch_slots_per_week between 1 and 1000),
  first_launch_week date not null default date_trunc('week', (now() at time zone 'utc') - interval '52 weeks')::date
    check (extract(isodow from first_launch_week) = 1),
  created_at timestamptz not null default now(),
  check (free_queue_min_weeks <= free_queue_max_weeks)
);
comment on table sites is 'The network of directory sites; is_self marks this deployment. A company can have listings on several.';
create unique index sites_one_self on sites (is_self) where is_self;

create table users (
  id bigserial primary key,
  email text not null check (length(email) <= 254),
  name text check (length(name) <= 160),
  created_at timestamptz not null default now()
);
create unique index users_email_lower on users (lower(email));
comment on table users is 'People with an account: owners, voters, reviewers.';

create table companies (
  id bigserial primary key,
  name text not null check (length(name) <= 500),
  domain text not null check (length(domain) <= 253),
  website_url text not null check (length(website_url) <= 2048),
  created_at timestamptz not null default now()
);
create unique index companies_domain on companies (lower(domain));
comment on table companies is 'A company behind one or more listings, identified by its web domain.';

create table categories (
  id serial primary key,
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'),
  name text not null check (length(name) <= 200),
  parent_id int references categories(id) on delete restrict,
  description text not null default '' check (length(description) <= 5000),
  faqs jsonb not null default '[]' check (jsonb_typeof(faqs) = 'array'),
  attributes jsonb not null default '[]' check (jsonb_typeof(attributes) = 'array'),
  position int not null default 0,
  check (parent_id is distinct from id)
);
comment on table categories is 'Two-level category tree; attributes are the [{key,label}] facts compare_listings shows side by side.';
create index categories_parent on categories (parent_id);

-- Categories are two levels: a child's parent must itself be top-level.
create function categories_two_levels() returns trigger language plpgsql as $$
begin
  if new.parent_id is not null and exists (select 1 from categories where id = new.parent_id and parent_id is not null) then
    raise exception 'categories are two levels deep' using errcode = 'check_violation';
  end if;
  return new;
end $$;
create trigger categories_two_levels before insert or update on categories
  for each row execute function categories_two_levels();

create table listings (
  id bigserial primary key,
  site_id int not null references sites(id),
  company_id bigint not null references companies(id),
  owner_user_id bigint references users(id),
  slug text not null check (slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'),
  name text not null check (length(name) <= 500),
  url text not null check (length(url) <= 2048),
  domain text not null check (length(domain) <= 253),
  logo_url text check (length(logo_url) <= 500),
  tagline text check (length(tagline) <= 200),
  short_description text check (length(short_description) <= 300),
  description text check (length(description) <= 20000),
  headline text check (length(headline) <= 200),
  summary text check (length(summary) <= 20000),
  seo_title text check (length(seo_title) <= 200),
  seo_description text check (length(seo_description) <= 320),
  stage text check (stage ~ '^[a-z0-9][a-z0-9-]{0,219}$'),
  pricing_model text check (length(pricing_model) <= 40),
  pricing_summary text check (length(pricing_summary) <= 300),
  country text check (country ~ '^[A-Z]{2}$'),
  city text check (length(city) <= 120),
  founded_year int check (founded_year between 1800 and 2100),
  demo_video_url text check (length(demo_video_url) <= 500),
  contact_email text check (length(contact_email) <= 254),
  features text[] not null default '{}' check (cardinality(features) <= 20),
  usps text[] not null default '{}' check (cardinality(usps) <= 20),
  keywords text[] not null default '{}' check (cardinality(keywords) <= 20),
  attributes jsonb not null default '{}' check (jsonb_typeof(attributes) = 'object'),
  status text not null default 'draft' check (status ~ '^[a-z_]{1,40}$'),
  plan text not null default 'free' check (plan in ('free', 'paid')),
  launch_week date check (extract(isodow from launch_week) = 1),
  launched_at timestamptz,
  primary_category_id int references categories(id),
  unlocked_sections text[] not null default '{}' check (unlocked_sections <@ array['story', 'milestones', 'media']),
  not_found_on_website text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(name, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(tagline, '')), 'B') ||
    setweight(to_tsvector('english', words_of(keywords)), 'B') ||
    setweight(to_tsvector('english', coalesce(description, '')), 'C')
  ) stored,
  -- What search ranks by: search without the description, so ranking never reads (or detoasts)
  -- a large description vector; the description still matches through search.
  search_rank tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(name, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(tagline, '')), 'B') ||
    setweight(to_tsvector('english', words_of(keywords)), 'B')
  ) stored,
  unique (site_id, slug)
);
comment on table listings is 'A company''s listing on one site. status: draft, awaiting_badge, scheduled, live (open-ended). unlocked_sections: paid sections shown publicly.';
comment on column listings.not_found_on_website is 'Profile facts the company''s own website did not state; left blank rather than invented.';
comment on column listings.attributes is 'Values of the category attributes, keyed by attribute key, for compare_listings.';
create index listings_status_week on listings (site_id, status, launch_week);
-- Covers the filters and sorts of search_listings so counts need not read the wide rows.
create index listings_browse on listings (site_id, status)
  include (id, primary_category_id, stage, country, pricing_model, domain, launched_at);
create index listings_domain_suffix on listings (reverse(lower(domain)) text_pattern_ops);
create index listings_company on listings (company_id);
create index listings_primary_category on listings (primary_category_id) where status = 'live';
create index listings_domain on listings (lower(domain));
create index listings_country on listings (country);
create index listings_created on listings (created_at desc);
create index listings_search on listings using gin (search);
-- search_listings falls back to names similar to q as a whole only when no words match.
create index listings_name_trgm on listings using gin (lower(name) gin_trgm_ops);
create index listings_tagline_trgm on listings using gin (lower(tagline) gin_trgm_ops);

create table listing_categories (
  listing_id bigint not null references listings(id) on delete cascade,
  category_id int not null references categories(id),
  is_primary boolean not null default false,
  primary key (listing_id, category_id)
);
comment on table listing_categories is 'Primary category plus up to 3 extra ones (extras need a paid plan).';
create unique index listing_categories_one_primary on listing_categories (listing_id) where is_primary;
create index listing_categories_category on listing_categories (category_id);

create function listing_categories_at_most_four() returns trigger language plpgsql as $$
begin
  if (select count(*) from listing_categories where listing_id = new.listing_id and not is_primary) > 3 then
    raise exception 'a listing has at most 3 extra categories' using errcode = 'check_violation';
  end if;
  return new;
end $$;
create trigger listing_categories_at_most_four after insert or update on listing_categories
  for each row execute function listing_categories_at_most_four();

create table listing_faqs (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  position int not null default 0,
  question text not null check (length(question) between 1 and 300),
  answer text not null check (length(answer) between 1 and 1500)
);
comment on table listing_faqs is 'FAQs on a listing profile, at most 10 (checked at the edge).';
create index listing_faqs_listing on listing_faqs (listing_id, position);

create table listing_socials (
  listing_id bigint not null references listings(id) on delete cascade,
  platform text not null check (platform ~ '^[a-z]{1,40}$'),
  url text not null check (length(url) <= 500),
  primary key (listing_id, platform)
);
comment on table listing_socials is 'Company social links by platform (linkedin, x, github, ...).';

create table listing_media (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  position int not null default 0,
  kind text not null check (kind in ('image', 'video')),
  url text not null check (length(url) <= 500),
  caption text check (length(caption) <= 300)
);
comment on table listing_media is 'Screenshots and videos; shown only when media is unlocked.';

create table listing_alternatives (
  listing_id bigint not null references listings(id) on delete cascade,
  alternative_id bigint not null references listings(id) on delete cascade,
  approved boolean not null default false,
  created_at timestamptz not null default now(),
  primary key (listing_id, alternative_id),
  check (listing_id <> alternative_id)
);
comment on table listing_alternatives is 'Alternatives an owner named for their listing; approved ones are listed first.';

create table founders (
  id bigserial primary key,
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'),
  user_id bigint references users(id),
  name text not null check (length(name) between 1 and 160),
  title text check (length(title) <= 160),
  bio text check (length(bio) <= 3000),
  country text check (country ~ '^[A-Z]{2}$'),
  avatar_url text check (length(avatar_url) <= 500),
  socials jsonb not null default '{}' check (jsonb_typeof(socials) = 'object'),
  created_at timestamptz not null default now()
);
comment on table founders is 'People who founded listed companies; public profile pages.';
create index founders_name_trgm on founders using gin (lower(name) gin_trgm_ops);
create index founders_country on founders (country);

create table listing_founders (
  listing_id bigint not null references listings(id) on delete cascade,
  founder_id bigint not null references founders(id) on delete cascade,
  role text check (length(role) <= 160),
  position int not null default 0,
  primary key (listing_id, founder_id)
);
comment on table listing_founders is 'Founders of the company behind a listing; position 0 is the primary founder.';
create index listing_founders_founder on listing_founders (founder_id);

create table listing_updates (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  title text not null check (length(title) between 1 and 200),
  body text not null check (length(body) between 1 and 5000),
  created_at timestamptz not null default now()
);
comment on table listing_updates is 'What''s new posts by the owner; followers are told.';
create index listing_updates_listing on listing_updates (listing_id, created_at desc);

create table milestones (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  date date not null,
  title text not null check (length(title) between 1 and 200),
  description text check (length(description) <= 2000),
  url text check (length(url) <= 500 and url ~ '^https://')
);
comment on table milestones is 'Company milestones; public when the milestones section is unlocked.';
create index milestones_listing on milestones (listing_id, date desc);

create table founder_stories (
  listing_id bigint primary key references listings(id) on delete cascade,
  title text check (length(title) <= 200),
  story text check (length(story) <= 8000),
  why_started text check (length(why_started) <= 8000),
  problem text check (length(problem) <= 8000),
  journey text check (length(journey) <= 8000),
  challenges text check (length(challenges) <= 8000),
  achievements text check (length(achievements) <= 8000),
  lessons text check (length(lessons) <= 8000),
  whats_next text check (length(whats_next) <= 8000),
  updated_at timestamptz not null default now()
);
comment on table founder_stories is 'The founder story of a listing, published with it when the story section is unlocked.';

create table interview_questions (
  id serial primary key,
  position int not null default 0,
  question text not null check (length(question) between 1 and 500),
  active boolean not null default true
);
comment on table interview_questions is 'Founder interview questions owners may answer.';

create table interview_answers (
  user_id bigint not null references users(id) on delete cascade,
  question_id int not null references interview_questions(id),
  answer text not null check (length(answer) between 1 and 4000),
  updated_at timestamptz not null default now(),
  primary key (user_id, question_id)
);
comment on table interview_answers is 'A person''s answers to the founder interview.';

create table reviews (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  user_id bigint not null references users(id),
  rating int not null check (rating between 1 and 5),
  body text check (length(body) <= 5000),
  flagged boolean not null default false,
  created_at timestamptz not null default now(),
  unique (listing_id, user_id)
);
comment on table reviews is 'Community reviews. Only genuine ones (not by the owner, not flagged) count towards the rating.';

create table votes (
  listing_id bigint not null references listings(id) on delete cascade,
  user_id bigint not null references users(id),
  created_at timestamptz not null default now(),
  primary key (listing_id, user_id)
);
comment on table votes is 'One community vote per person per listing, cast on the site.';
create index votes_created on votes (created_at);

create table follows (
  listing_id bigint not null references listings(id) on delete cascade,
  user_id bigint not null references users(id),
  created_at timestamptz not null default now(),
  primary key (listing_id, user_id)
);
comment on table follows is 'People following a listing''s updates.';

create table listing_views (
  listing_id bigint not null references listings(id) on delete cascade,
  day date not null,
  views int not null default 0 check (views >= 0),
  primary key (listing_id, day)
);
comment on table listing_views is 'Profile views per listing per UTC day.';

create table domain_ratings (
  company_id bigint not null references companies(id) on delete cascade,
  measured_on date not null,
  rating int not null check (rating between 0 and 100),
  primary key (company_id, measured_on)
);
comment on table domain_ratings is 'Domain Rating history of a company''s domain.';

create table revenue_figures (
  company_id bigint not null references companies(id) on delete cascade,
  month date not null check (extract(day from month) = 1),
  mrr_cents bigint not null check (mrr_cents >= 0),
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  verified boolean not null default false,
  primary key (company_id, month)
);
comment on table revenue_figures is 'Monthly recurring revenue a company reports, in integer cents.';

create table billboard_contributions (
  id bigserial primary key,
  listing_id bigint not null references listings(id) on delete cascade,
  user_id bigint references users(id),
  amount_cents bigint not null check (amount_cents between 1 and 100000000),
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  created_at timestamptz not null default now()
);
comment on table billboard_contributions is 'Money paid to rank on the billboard; always presented as paid.';
create index billboard_contributions_listing on billboard_contributions (listing_id);

create table awards (
  id bigserial primary key,
  site_id int not null references sites(id),
  listing_id bigint not null references listings(id) on delete cascade,
  week date not null check (extract(isodow from week) = 1),
  rank int not null check (rank between 1 and 3),
  votes int not null check (votes >= 0),
  created_at timestamptz not null default now(),
  unique (site_id, week, rank)
);
comment on table awards is 'Launch of the Week #1-#3, decided by community votes cast during the launch week.';
create index awards_listing on awards (listing_id);

create table blog_posts (
  id bigserial primary key,
  slug text not null unique check (slug ~ '^[a-z0-9][a-z0-9-]{0,219}$'),
  title text not null check (length(title) <= 300),
  excerpt text not null default '' check (length(excerpt) <= 1000),
  body_md text not null check (length(body_md) <= 200000),
  author text not null default '' check (length(author) <= 160),
  tags text[] not null default '{}',
  faqs jsonb not null default '[]' check (jsonb_typeof(faqs) = 'array'),
  published_at timestamptz not null default now(),
  search tsvector generated always as (
    setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') ||
    setweight(to_tsvector('english', coalesce(body_md, '')), 'C')
  ) stored
);
comment on table blog_posts is 'Editorial posts in Markdown with FAQs.';
create index blog_posts_published on blog_posts (published_at desc);
create index blog_posts_search on blog_posts using gin (search);
create index blog_posts_title_trgm on blog_posts using gin (lower(title) gin_trgm_ops);

create table products (
  code text primary key check (code ~ '^[a-z0-9_]{1,60}$'),
  name text not null check (length(name) <= 200),
  description text not null default '' check (length(description) <= 2000),
  needs_listing boolean not null default true,
  needs_week boolean not null default false,
  options jsonb check (options is null or jsonb_typeof(options) = 'object'),
  position int not null default 0,
  active boolean not null default true
);
comment on table products is 'What can be bought: launch, skip_queue, featured, and so on.';
comment on column products.options is 'JSON Schema of the free-form options an order item may carry, or null.';

create table product_prices (
  id bigserial primary key,
  site_id int not null references sites(id),
  product_code text not null references products(code),
  amount_cents bigint not null check (amount_cents between 0 and 100000000),
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  min_amount_cents bigint check (min_amount_cents between 1 and 100000000),
  valid_from timestamptz not null default now()
);
comment on table product_prices is 'Admin-set prices; the newest row per site and product that is already valid is current.';
create index product_prices_current on product_prices (site_id, product_code, valid_from desc);

-- Statistics for makers (get_listing_stats): website clicks through the counting redirect (each
-- visitor once a day, recognised by a salted hash whose salt is thrown away after two days, so no
-- address is stored or recoverable), badge impressions by referring host, and reads of a listing
-- by API and MCP clients. Views are listing_views (0001), follows and votes their own tables.

create table listing_clicks (
  listing_id bigint not null references listings(id) on delete cascade,
  day date not null,
  clicks int not null default 0 check (clicks >= 0),
  primary key (listing_id, day)
);
comment on table listing_clicks is 'Visits of a listing''s website through {site_url}/go/{slug}, counting each visitor once per listing and UTC day.';

create table stats_salts (
  day date primary key,
  salt bytea not null default uuid_send(gen_random_uuid())
);
comment on table stats_salts is 'A random salt per UTC day for recognising a returning visitor that day; deleted after two days, after which the day''s visitor hashes mean nothing.';

create table listing_click_visitors (
  listing_id bigint not null references listings(id) on delete cascade,
  day date not null,
  visitor bytea not null check (octet_length(visitor) = 32),
  primary key (listing_id, day, visitor)
);
comment on table listing_click_visitors is 'Who already clicked today: sha256 of the day''s salt, the client address and user agent, never the address itself; rows older than two days are deleted.';

create table listing_badge_impressions (
  listing_id bigint not null references listings(id) on delete cascade,
  day date not null,
  host text not null check (length(host) <= 253),
  impressions int not null default 0 check (impressions >= 0),
  primary key (listing_id, day, host)
);
comment on table listing_badge_impressions is 'Badge images served per listing, UTC day and referring host (the Referer''s host name; "(direct)" without one).';

create table listing_reads (
  listing_id bigint not null references listings(id) on delete cascade,
  day date not null,
  surface text not null check (surface in ('api', 'mcp')),
  reads int not null default 0 check (reads >= 0),
  primary key (listing_id, day, surface)
);
comment on table listing_reads is 'Reads of a listing''s profile by REST API and MCP clients per UTC day.';

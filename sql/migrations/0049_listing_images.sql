-- The pictures a directory shows, served from its own origin: each listing's logo fetched once
-- from its logo_url (through the SSRF-safe fetcher), rasterised and resized to the sizes the pages
-- use, and each live listing's 1200x630 share image, rendered when what it shows changed.

create table listing_logos (
  listing_id bigint primary key references listings(id) on delete cascade,
  source_url text not null check (length(source_url) <= 500),
  status text not null check (status in ('ok', 'failed')),
  error text check (length(error) <= 500),
  fetched_at timestamptz not null default now()
);
comment on table listing_logos is 'The last fetch of a listing''s logo_url: ok with its sizes in listing_logo_images, or failed and why (the pages then show an initials tile). A listing whose logo_url differs from source_url is due a fetch.';

create table listing_logo_images (
  listing_id bigint not null references listing_logos(listing_id) on delete cascade,
  size int not null check (size in (64, 128, 256)),
  png bytea not null check (octet_length(png) <= 500000),
  etag text not null check (length(etag) <= 64),
  primary key (listing_id, size)
);
comment on table listing_logo_images is 'A listing''s logo as square PNGs of the sizes the pages use (the original, SVG included, is never served).';


create table listing_share_images (
  listing_id bigint primary key references listings(id) on delete cascade,
  fingerprint text not null check (length(fingerprint) <= 64),
  png bytea not null check (octet_length(png) <= 2000000),
  rendered_at timestamptz not null default now()
);
comment on table listing_share_images is 'The 1200x630 share image (og:image) of a listing as last rendered; fingerprint is a hash of what it shows (name, tagline, logo, votes, launch week), so a change renders it again.';

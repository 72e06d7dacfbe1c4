-- Order documents (gap-free numbers) and the makers' statistics (clicks counted once per visitor a day).

create or replace function next_document_number(p_site int, p_kind text, p_year int) returns int
language sql volatile as $$
  insert into document_counters (site_id, kind, year, last_number) values (p_site, p_kind, p_year, 1)
  on conflict (site_id, kind, year) do update set last_number = document_counters.last_number + 1
  returning last_number
$$;
comment on function next_document_number(int, text, int) is 'Allocates the next number of a kind of document for a seller and year. The counter row stays locked until the caller''s transaction ends, and a rolled-back transaction gives its number back: call it in the transaction that stores the document.';

create or replace function count_listing_click(p_listing bigint, p_fingerprint bytea) returns boolean
language plpgsql volatile as $$
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
end $$;
comment on function count_listing_click(bigint, bytea) is 'Counts a click on a listing''s website link once per visitor and UTC day; p_fingerprint (address and user agent) is hashed with the day''s salt and never stored. True when it counted.';

create or replace function forget_stats_visitors() returns void language sql volatile as $$
  delete from listing_click_visitors where day < (now() at time zone 'utc')::date - 1;
  delete from stats_salts where day < (now() at time zone 'utc')::date - 1;
$$;
comment on function forget_stats_visitors() is 'Deletes visitor hashes and salts older than yesterday (expire_records calls it hourly).';

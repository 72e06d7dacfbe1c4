-- The public site's community actions: votes, follows, reviews and review flags, and views counted
-- at most once per visitor per listing per day without keeping addresses.

-- Reviews are editable: remember when.
alter table reviews add column updated_at timestamptz not null default now();
comment on column reviews.updated_at is 'When the reviewer last edited the rating or text.';
-- A blank text is no text: stored as null, so the constraint below holds for rows written before it.
update reviews set body = null where body is not null and length(btrim(body)) = 0;
alter table reviews add constraint reviews_body_not_blank check (body is null or length(btrim(body)) > 0);

create table review_flags (
  review_id bigint not null references reviews(id) on delete cascade,
  user_id bigint not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (review_id, user_id)
);
comment on table review_flags is 'Who flagged which review. A flagged review (reviews.flagged) stops counting towards the rating until an operator clears it (ops reviews clear), which deletes its flags.';

-- Votes and follows only for live listings, and votes not for one's own listing: the site's rule,
-- checked where the row is written so no caller can skip it. The unique key (listing_id, user_id)
-- of votes makes a second vote by the same person fail in the database.
create function cast_vote(p_listing bigint, p_user bigint) returns text language plpgsql as $$
declare l record;
begin
  select id, status, owner_user_id into l from listings where id = p_listing;
  if l.id is null or l.status <> 'live' then return 'not_live'; end if;
  if l.owner_user_id = p_user then return 'own_listing'; end if;
  insert into votes (listing_id, user_id) values (p_listing, p_user) on conflict (listing_id, user_id) do nothing;
  return 'voted';
end $$;
comment on function cast_vote is 'Records a person''s vote for a live listing (idempotent). Returns voted, not_live or own_listing (owners do not vote for their own listing).';

create function follow_listing(p_listing bigint, p_user bigint) returns text language plpgsql as $$
begin
  if not exists (select 1 from listings where id = p_listing and status = 'live') then return 'not_live'; end if;
  insert into follows (listing_id, user_id) values (p_listing, p_user) on conflict (listing_id, user_id) do nothing;
  return 'following';
end $$;
comment on function follow_listing is 'Starts following a live listing (idempotent). Returns following or not_live.';

-- Views: a visitor is a keyed hash (sha256 of the day's random salt and what identifies the client);
-- salts are kept for today only, so yesterday's hashes can no longer be linked to anyone.
create table view_salts (
  day date primary key,
  salt text not null
);
comment on table view_salts is 'One random salt per UTC day for hashing visitors of listing pages; older salts are deleted as soon as a new day starts.';

create table listing_view_visitors (
  listing_id bigint not null references listings(id) on delete cascade,
  day date not null,
  visitor bytea not null,
  primary key (listing_id, day, visitor)
);
comment on table listing_view_visitors is 'Which hashed visitors already counted a view of a listing today; rows of past days are deleted by record_listing_view.';

create function record_listing_view(p_listing bigint, p_visitor text) returns boolean language plpgsql as $$
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
end $$;
comment on function record_listing_view is 'Counts a view of a listing at most once per visitor per UTC day; the visitor is hashed with the day''s salt, never stored raw. Returns true when counted.';

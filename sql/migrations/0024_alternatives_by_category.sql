-- A listing's alternatives from its category are the category's most voted live listings. They
-- were read by walking every live listing in votes order (listing_stats_live_rank, 0014) and
-- looking up each one's category in listings until enough were found: about (offset + page) x N / c
-- lookups for a category of c among N live listings, 180 for a first page at 100k (0.75-0.85 ms a
-- call, most of an uncached listing page's database time), or, for a small category, reading it
-- whole. listing_stats now carries each listing's primary category, always equal to
-- listings.primary_category_id (two triggers, in the statement that changes either), so an index
-- reads one category's live listings in that order directly, a handful of entries for a page.

alter table listing_stats add column primary_category_id int;
comment on column listing_stats.primary_category_id is 'The listing''s primary category as listings holds it now (not as of the last refresh): set on insert, and by listings'' own trigger when it changes.';

-- The refresh inserts rows (insert ... select * from fresh, without this column): each gets its category here.
create function listing_stats_category() returns trigger language plpgsql as $$
begin
  new.primary_category_id := (select l.primary_category_id from listings l where l.id = new.listing_id);
  return new;
end $$;
comment on function listing_stats_category is 'Sets a listing_stats row''s primary category from its listing as the row is inserted.';
create trigger listing_stats_category before insert on listing_stats for each row execute function listing_stats_category();

-- A listing moved to another category is read there at once, as the walk's lookup of listings did.
create function listing_category_to_stats() returns trigger language plpgsql as $$
begin
  update listing_stats s set primary_category_id = new.primary_category_id where s.listing_id = new.id;
  return null;
end $$;
comment on function listing_category_to_stats is 'Carries a listing''s new primary category into its listing_stats row.';
create trigger listings_category_to_stats after update of primary_category_id on listings for each row
  when (old.primary_category_id is distinct from new.primary_category_id) execute function listing_category_to_stats();

update listing_stats s set primary_category_id = l.primary_category_id
from listings l where l.id = s.listing_id and l.primary_category_id is not null;

create index listing_stats_category_rank on listing_stats (site_id, primary_category_id, votes desc, launched_at desc nulls last, listing_id desc) where live;
comment on index listing_stats_category_rank is 'Live listings of one primary category by votes, then launch time (newest first), then id: alternatives of a listing, read in order.';
comment on index listing_stats_live_rank is 'Live listings by votes, then launch time (newest first), then id: the votes order a search walks for a large tie at its page''s end (alternatives read listing_stats_category_rank since 0024).';

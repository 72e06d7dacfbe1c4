-- Alternatives of a listing in their order (most votes, then newest, then id): a page of them walks
-- this index and stops once it has found enough of the category, instead of looking up the votes
-- of every live listing of the category and sorting them all (11 ms for a category of 2,700 at
-- 100k listings, ten times that at a million).
create index listing_stats_live_rank on listing_stats (site_id, votes desc, launched_at desc nulls last, listing_id desc) where live;
comment on index listing_stats_live_rank is 'Live listings by votes, then launch time (newest first), then id: alternatives of a listing, read in order.';

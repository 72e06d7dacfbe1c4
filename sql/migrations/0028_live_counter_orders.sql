-- A list without q sorted by trending, views or follows walks listing_stats in that counter's order
-- and keeps its page's listings; ties are broken by launch time (newest first), then id. The
-- counters' indexes (0013) order ties by id alone, as list_launches' sections do, so a walk sorted
-- each tie it crossed in full, and follows and views tie in groups of thousands: page 3 of a stage's
-- listings by follows read 21k entries (60 ms at 100k). These order the live listings exactly as
-- the list does, so a walk reads about as many entries as it keeps, as listing_stats_live_rank
-- already does for votes.

create index listing_stats_live_trending on listing_stats (site_id, trend_log desc, launched_at desc nulls last, listing_id desc) where live;
comment on index listing_stats_live_trending is 'Live listings by trending (trend_log), then launch time (newest first), then id: lists without q sorted by trending.';
create index listing_stats_live_views on listing_stats (site_id, views desc, launched_at desc nulls last, listing_id desc) where live;
comment on index listing_stats_live_views is 'Live listings by views, then launch time (newest first), then id: lists without q sorted by most_viewed.';
create index listing_stats_live_follows on listing_stats (site_id, follows desc, launched_at desc nulls last, listing_id desc) where live;
comment on index listing_stats_live_follows is 'Live listings by follows, then launch time (newest first), then id: lists without q sorted by most_followed.';

-- The latest updates of a site (the home page and /updates) newest first: walked from this index
-- and stopped at the page's end, instead of every update of every live listing joined, counted and
-- sorted on each read (which grew with the updates ever posted).
create index listing_updates_newest on listing_updates (created_at desc, id desc);

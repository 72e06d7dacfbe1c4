-- Alternatives of a listing are the live listings of its primary category, newest first among
-- equal votes: this index hands them over by category without reading every live listing.
create index listings_category_live on listings (site_id, primary_category_id, launched_at desc nulls last, id desc) where status = 'live';
comment on index listings_category_live is 'Live listings of a primary category, newest first (alternatives of a listing).';

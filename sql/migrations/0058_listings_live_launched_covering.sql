-- The newest live listings by a stage, country or pricing model walk listings_live_launched and
-- check each entry's value: held in the index, the walk reads no row of listings. Checked on the
-- row, each entry fetched its row, and a plan guessing its limit (as a cached plan of a statement
-- with bound page bounds must) found reading the value's own index whole and sorting it cheaper:
-- 20 ms for a broad stage at 100k listings, against 0.2 ms walking.
drop index listings_live_launched;
create index listings_live_launched on listings (site_id, launched_at desc nulls last, id desc)
  include (stage, country, pricing_model) where status = 'live';

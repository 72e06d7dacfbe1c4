-- A list filtered by stage, country or pricing model counts its matches (search_listings' total)
-- and, when they are many, walks the sort's order keeping them. Both read the matches from
-- listings_browse, which is keyed by site and status only: every live listing was read and
-- filtered, 20-40 ms at 100k for a pricing model that matches none. Keyed by the filter too, an
-- index reads only the matches (none: nothing), and carries what a list reads of them (id, launch
-- time and week, and the other two filters, so two filters together are read from one index too)
-- so the heap is not visited: without the other filters, a country and a stage at a million were
-- planned as a read of every live listing (88 ms). The pricing model is compared in lower case.

create index listings_stage_browse on listings (site_id, status, stage) include (id, launched_at, launch_week, country, pricing_model);
comment on index listings_stage_browse is 'A site''s listings of one status and stage: lists filtered by stage (search_listings).';
create index listings_country_browse on listings (site_id, status, country) include (id, launched_at, launch_week, stage, pricing_model);
comment on index listings_country_browse is 'A site''s listings of one status and country: lists filtered by country (search_listings).';
create index listings_pricing_browse on listings (site_id, status, lower(pricing_model)) include (id, launched_at, launch_week, pricing_model, stage, country);
comment on index listings_pricing_browse is 'A site''s listings of one status and pricing model, in lower case: lists filtered by pricing model (search_listings). pricing_model is included so the planner can read the index alone.';

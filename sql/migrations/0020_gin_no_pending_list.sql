-- Searches read GIN indexes, and by default (fastupdate) a GIN index first gathers new entries in a
-- pending list that every search of the index reads in full, until a vacuum, or 4 MB of it, merges
-- the list into the index. One re-crawl of 1,000 listings left 2,000 entries there (50 pages of
-- listings_search) and a one-typo name search's statement took 3.5 ms instead of 1.7 ms at 100k
-- listings; up to 4 MB, and on a directory that changes little between vacuums, it would be worse.
-- Reads are the hot path, so new entries go straight into each index (a listing update measured
-- 1.9 ms instead of 1.3 ms) and what a pending list holds now is merged. A GIN index added later
-- must say `with (fastupdate = off)`: sql/gin-pending.test.ts checks every one.

-- Every GIN index of this schema with its pending list on (a bulk load: entries gathered and merged
-- in batches, the synthetic fill's inserts in less than half the time) or off, merged at once.
create function set_gin_pending_lists(enabled boolean) returns void language plpgsql as $$
declare
  ix regclass;
begin
  for ix in
    select c.oid::regclass from pg_class c
    join pg_am a on a.oid = c.relam and a.amname = 'gin'
    where c.relkind = 'i' and c.relnamespace = current_schema()::regnamespace
  loop
    execute format('alter index %s set (fastupdate = %s)', ix, case when enabled then 'on' else 'off' end);
    if not enabled then
      perform gin_clean_pending_list(ix);
    end if;
  end loop;
end $$;

comment on function set_gin_pending_lists(boolean) is 'Turns the pending list (fastupdate) of every GIN index of the schema on, for a bulk load, or off, merging what it holds: off is how searches want them (migration 0020).';

select set_gin_pending_lists(false);

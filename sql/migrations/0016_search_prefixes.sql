-- Typo search at a million listings (issue 14). Each term of a query also matches as a prefix
-- ('pro':*). GIN answers `rare & common` fast by skipping through the common term's postings,
-- but not when a term is a prefix: it then collects every listing of every word with that prefix
-- first ('cehonest & pro:*' took 15 ms at 100k, 0.6 ms with 'pro' exact, and grows with the
-- directory). Now the match uses the indexed words a prefix stands for, when there are at most
-- 40 of them (search_lexemes, kept by the refresh like search_words); ranking still uses the
-- query as it was, so scores do not change.

create table search_lexemes (
  lexeme text primary key,
  listings int not null check (listings > 0)
);
create index search_lexemes_prefix on search_lexemes (lexeme text_pattern_ops);
comment on table search_lexemes is 'Distinct lexemes of listings.search, with how many listings have each: what a search prefix can stand for.';
create table search_lexeme_deltas (lexeme text not null, delta int not null);
comment on table search_lexeme_deltas is 'Lexemes listings gained (+1) or lost (-1) since the last refresh.';

create function note_listing_lexemes() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into search_lexeme_deltas
      select x, count(*) from new_rows n cross join unnest(tsvector_to_array(n.search)) x group by x;
  elsif tg_op = 'DELETE' then
    insert into search_lexeme_deltas
      select x, -count(*) from old_rows o cross join unnest(tsvector_to_array(o.search)) x group by x;
  else
    insert into search_lexeme_deltas
      select x.lexeme, sum(x.d) from (
        select l as lexeme, 1 as d from new_rows n join old_rows o on o.id = n.id
          cross join unnest(tsvector_to_array(n.search)) l where n.search is distinct from o.search
        union all
        select l, -1 from new_rows n join old_rows o on o.id = n.id
          cross join unnest(tsvector_to_array(o.search)) l where n.search is distinct from o.search
      ) x group by x.lexeme having sum(x.d) <> 0;
  end if;
  return null;
end $$;
comment on function note_listing_lexemes is 'Trigger: records the lexemes of listings.search a statement added or removed.';
create trigger listings_lexemes_ins after insert on listings referencing new table as new_rows for each statement execute function note_listing_lexemes();
create trigger listings_lexemes_upd after update on listings referencing old table as old_rows new table as new_rows for each statement execute function note_listing_lexemes();
create trigger listings_lexemes_del after delete on listings referencing old table as old_rows for each statement execute function note_listing_lexemes();

create function refresh_search_lexemes() returns void language plpgsql as $$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_lexemes'));
  create temp table lexeme_moves on commit drop as
    with d as (delete from search_lexeme_deltas returning lexeme, delta)
    select lexeme, sum(delta)::int as delta from d group by lexeme having sum(delta) <> 0;
  merge into search_lexemes s using lexeme_moves m on s.lexeme = m.lexeme
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (lexeme, listings) values (m.lexeme, m.delta);
  drop table lexeme_moves;
end $$;
comment on function refresh_search_lexemes is 'Applies the lexemes listings gained or lost since the last call to search_lexemes.';

insert into search_lexemes (lexeme, listings)
select x, count(*) from listings cross join unnest(tsvector_to_array(search)) x group by x;
analyze search_lexemes;

create function typo_tsqueries(q text, out ranked tsquery, out matched tsquery) language plpgsql stable parallel safe as $$
declare
  terms text[];
  term text;
  alt tsquery;
  alt_matched tsquery;
  known text[];
  w text;
  has_content boolean;
begin
  select array_agg(t order by ord) into terms from (
    select t, min(ord) as ord
    from regexp_split_to_table(lower(unaccent(q)), '[^[:alnum:]]+') with ordinality as x(t, ord)
    where t <> '' group by t order by min(ord) limit 8) s;
  if terms is null then return; end if;
  -- English stop words match nothing in the stemmed columns: drop them unless nothing else is left.
  has_content := exists (select 1 from unnest(terms) t where numnode(plainto_tsquery('english', t)) > 0);
  foreach term in array terms loop
    continue when has_content and numnode(plainto_tsquery('english', term)) = 0;
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
    -- For matching, a prefix becomes the indexed words it stands for when they are few: GIN then
    -- skips through a common term's postings using a rare one, which it cannot do for a prefix.
    alt_matched := alt;
    if length(term) >= 3 then
      select array_agg(lexeme) into known
      from (select lexeme from search_lexemes where lexeme like term || '%' order by lexeme limit 41) x;
      -- None known (a misspelling, or a word added since the last refresh): the prefix itself.
      if cardinality(known) between 1 and 40 then
        -- Cast, not to_tsquery: each lexeme as it is indexed, never re-parsed into several.
        alt_matched := (select string_agg(quote_literal(k), ' | ') from unnest(known) k)::tsquery || plainto_tsquery('english', term);
      end if;
    end if;
    if length(term) >= 4 then
      for w in
        -- The 6 nearest known words by trigram distance (a kNN walk of the GiST index); ties by
        -- spelling, so the pick does not depend on the index's page order.
        select c.word from (select word from search_words order by word <-> term, word limit 6) c
        where c.word <> term and levenshtein(c.word, term) <= case when length(term) >= 7 then 2 else 1 end
        union
        -- An adjacent swap ("notoin" -> "notion") is one typo, though Levenshtein counts two.
        select s.word from search_words s
        where s.word <> term and s.word in (
          select overlay(term placing substr(term, i + 1, 1) || substr(term, i, 1) from i for 2)
          from generate_series(1, length(term) - 1) i)
      loop
        alt := alt || to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
        alt_matched := alt_matched || to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
      end loop;
    end if;
    ranked := case when ranked is null then alt else ranked && alt end;
    matched := case when matched is null then alt_matched else matched && alt_matched end;
  end loop;
end $$;
comment on function typo_tsqueries is 'The typo-tolerant tsquery of free text twice: as ranked (terms as prefixes) and as matched (a prefix spelled out as the known lexemes it stands for, when at most 40).';

create or replace function typo_tsquery(q text) returns tsquery language sql stable parallel safe as $$
  select ranked from typo_tsqueries(q)
$$;

create or replace function refresh_directory_views() returns void language plpgsql as $$
declare
  stale text[];
begin
  perform refresh_listing_stats();
  perform refresh_search_words();
  perform refresh_search_lexemes();
  perform refresh_listing_counts();
  with d as (delete from views_dirty returning view_name) select array_agg(distinct view_name) into stale from d;
  if 'mv_board_billboard' = any(stale) then refresh materialized view concurrently mv_board_billboard; end if;
  if 'mv_board_revenue' = any(stale) then refresh materialized view concurrently mv_board_revenue; end if;
  perform pg_notify('directory_changed', nextval('cache_generation')::text);
end $$;

-- Search: the words and lexemes typo correction reads (planned at the edge, sql/queries/typo-plan.ts),
-- how they are kept, and the tsqueries built from a plan.

CREATE OR REPLACE FUNCTION public.note_listing_lexemes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function note_listing_lexemes() is 'Trigger: records the lexemes of listings.search a statement added or removed.';

CREATE OR REPLACE FUNCTION public.refresh_search_lexemes()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  moved bigint;
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_lexemes'));
  create temp table lexeme_moves on commit drop as
    with d as (delete from search_lexeme_deltas returning lexeme, delta)
    select lexeme, sum(delta)::int as delta from d group by lexeme having sum(delta) <> 0;
  merge into search_lexemes s using lexeme_moves m on s.lexeme = m.lexeme
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (lexeme, listings) values (m.lexeme, m.delta);
  get diagnostics moved = row_count;
  if moved > 0 then
    perform nextval('search_vocabulary_generation');
  end if;
  drop table lexeme_moves;
end $function$;
comment on function refresh_search_lexemes() is 'Applies the lexemes listings gained or lost since the last call to search_lexemes, moving search_vocabulary_generation when any changed.';

CREATE OR REPLACE FUNCTION public.refresh_search_words()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
declare
  moved bigint;
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_words'));
  create temp table word_moves on commit drop as
    with d as (delete from search_word_deltas returning word, delta)
    select word, sum(delta)::int as delta from d group by word having sum(delta) <> 0;
  merge into search_words s using word_moves m on s.word = m.word
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (word, listings) values (m.word, m.delta);
  get diagnostics moved = row_count;
  if moved > 0 then
    perform nextval('search_vocabulary_generation');
  end if;
  drop table word_moves;
end $function$;
comment on function refresh_search_words() is 'Applies the words listings gained or lost since the last call to search_words, moving search_vocabulary_generation when any changed.';

CREATE OR REPLACE FUNCTION public.search_words_of(p_name text, p_tagline text, p_keywords text[], p_description text)
 RETURNS SETOF text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select w from unnest(tsvector_to_array(to_tsvector('simple',
    coalesce(p_name, '') || ' ' || coalesce(p_tagline, '') || ' ' || words_of(p_keywords) || ' ' || coalesce(left(p_description, 2000), '')))) w
  where length(w) between 3 and 40 and w !~ '^[0-9]+$'
$function$;
comment on function search_words_of(p_name text, p_tagline text, p_keywords text[], p_description text) is 'The words of a listing''s text that typo correction knows.';

CREATE OR REPLACE FUNCTION public.set_gin_pending_lists(enabled boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
end $function$;
comment on function set_gin_pending_lists(enabled boolean) is 'Turns the pending list (fastupdate) of every GIN index of the schema on, for a bulk load, or off, merging what it holds: off is how searches want them (migration 0020).';




CREATE OR REPLACE FUNCTION public.words_of(text[])
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ select coalesce(array_to_string($1, ' '), '') $function$;
comment on function words_of(text[]) is 'Keywords joined with spaces for the search vectors: array_to_string is only stable, this is immutable in practice.';

-- Expressions only, no statement: each statement a function runs costs it tens of microseconds.
CREATE OR REPLACE FUNCTION public.planned_tsqueries(terms text[], near text[], near_group integer[], known text[], narrow_group integer, OUT ranked tsquery, OUT matched tsquery, OUT narrow tsquery)
 RETURNS record
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
declare
  term text;
  alt tsquery;
  alt_matched tsquery;
  near_q tsquery;
begin
  for g in 1 .. coalesce(cardinality(terms), 0) loop
    term := terms[g];
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
    -- Cast, not to_tsquery: each known lexeme as it is indexed, never re-parsed into several.
    alt_matched := case when known[g] is null then alt else known[g]::tsquery || plainto_tsquery('english', term) end;
    for i in 1 .. coalesce(cardinality(near), 0) loop
      continue when near_group[i] <> g;
      near_q := to_tsquery('simple', quote_literal(near[i])) || plainto_tsquery('english', near[i]);
      alt := alt || near_q;
      alt_matched := alt_matched || near_q;
    end loop;
    ranked := case when ranked is null then alt else ranked && alt end;
    matched := case when matched is null then alt_matched else matched && alt_matched end;
    if g = narrow_group then
      narrow := alt_matched;
    end if;
  end loop;
end $function$;
comment on function planned_tsqueries(text[], text[], integer[], text[], integer) is 'A search''s typo-tolerant tsqueries from the choices the edge made (sql/queries/typo-plan.ts): ranked (each term also as a prefix), matched (a prefix spelled out as its known lexemes when given) and narrow (the group of one term, far rarer than another, for the index to find alone; null otherwise). terms: one group each, in order; near and near_group: each group''s near words; known: per group, tsquery text or null; narrow_group: or null.';

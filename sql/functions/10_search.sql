-- Search: typo correction (typo_tsqueries), the words and lexemes it reads, and how they are kept.

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
end $function$;
comment on function refresh_search_lexemes() is 'Applies the lexemes listings gained or lost since the last call to search_lexemes.';

CREATE OR REPLACE FUNCTION public.refresh_search_words()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
begin
  perform pg_advisory_xact_lock(hashtext('refresh_search_words'));
  create temp table word_moves on commit drop as
    with d as (delete from search_word_deltas returning word, delta)
    select word, sum(delta)::int as delta from d group by word having sum(delta) <> 0;
  merge into search_words s using word_moves m on s.word = m.word
  when matched and s.listings + m.delta <= 0 then delete
  when matched then update set listings = s.listings + m.delta
  when not matched and m.delta > 0 then insert (word, listings) values (m.word, m.delta);
  drop table word_moves;
end $function$;
comment on function refresh_search_words() is 'Applies the words listings gained or lost since the last call to search_words.';

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

CREATE OR REPLACE FUNCTION public.typo_tsqueries(q text, OUT ranked tsquery, OUT matched tsquery, OUT narrow tsquery)
 RETURNS record
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
declare
  terms text[];
  term text;
  -- Each term's English tsquery (its stem, or empty for a stop word), built once.
  stems tsquery[] := '{}';
  stem tsquery;
  t int;
  alt tsquery;
  alt_matched tsquery;
  known text[];
  -- The known lexemes as one tsquery, built in the same statement.
  known_q tsquery;
  w text;
  near text[];
  near_q tsquery;
  has_content boolean;
  -- Each term's group: its tsquery, the words it stands for (counted with their stems) and the known
  -- lexemes of its prefix (counted as they are), each with the group's number beside it.
  groups tsquery[] := '{}';
  words text[] := '{}';
  word_group int[] := '{}';
  lexemes text[] := '{}';
  lexeme_group int[] := '{}';
  unbounded int[] := '{}';
  g int;
  lexemes_before int;
  -- Whether some group may count 20 lexemes (a word and its stem count two): else none is narrowed.
  wide boolean := false;
  -- Whether some group may be in very many listings (a short word, or a prefix of many listings).
  large boolean := false;
  known_listings bigint;
  rarest int;
begin
  -- The first 8 distinct words, in order; simple expressions, not statements (each statement a
  -- function runs costs it tens of microseconds).
  terms := '{}';
  foreach term in array regexp_split_to_array(lower(unaccent(q)), '[^[:alnum:]]+') loop
    continue when term = '' or term = any(terms);
    terms := terms || term;
    exit when cardinality(terms) = 8;
  end loop;
  if cardinality(terms) = 0 then return; end if;
  -- English stop words match nothing in the stemmed columns: drop them unless nothing else is left.
  has_content := false;
  foreach term in array terms loop
    stem := plainto_tsquery('english', term);
    stems := stems || stem;
    has_content := has_content or numnode(stem) > 0;
  end loop;
  for t in 1 .. cardinality(terms) loop
    term := terms[t];
    stem := stems[t];
    continue when has_content and numnode(stem) = 0;
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || stem;
    -- For matching, a prefix becomes the indexed words it stands for when they are few: GIN then
    -- skips through a common term's postings using a rare one, which it cannot do for a prefix.
    alt_matched := alt;
    g := cardinality(groups) + 1;
    lexemes_before := cardinality(lexemes);
    words := words || term;
    if length(term) >= 3 then
      -- One statement for the term's lookups (each statement a function runs costs it tens of
      -- microseconds whatever it reads): the known lexemes of its prefix, them as one tsquery, and
      -- from 4 letters the known words one typo away.
      -- The prefix as a range in the pattern index's (byte) order, up to the term with its last
      -- letter's successor, so a cached generic plan still reads the index; which 41 come first
      -- does not matter, only whether there are more than 40. Cast, not to_tsquery: each lexeme as
      -- it is indexed, never re-parsed into several.
      -- Near words: known words sharing a deletion with the term, within one edit (two from 7
      -- letters); the 6 nearest by trigram distance, ties by spelling. The candidates come from the
      -- deletions index alone, fenced from the order: offered the order and limit, the planner
      -- walked the trigram index nearest first over every known word, filtering each (17,669 words
      -- at a million listings: 55 ms a term for 3 matches). An adjacent swap ("notoin" -> "notion")
      -- is one typo, though Levenshtein counts two; as `= any(array)`, index probes: `in (select
      -- ...)` planned, once cached, as a hash join over every known word. In a fixed order (the 6
      -- nearest as chosen, then swaps by spelling): ts_rank dedups a term's prefix and its stem as
      -- one operand and keeps whichever its unstable sort leaves first, so the order of the
      -- alternatives can move a score (a union's order was its hash table's).
      select x.known, case when cardinality(x.known) between 1 and 40 then (select string_agg(quote_literal(k), ' | ') from unnest(x.known) k)::tsquery end,
             case when length(term) >= 4 then array(
               select u.word from (
                 (with c as materialized (
                    select s.word from search_words s where word_deletions(s.word) && word_deletions(term) and s.word <> term)
                  select c.word, 0 as part, c.word <-> term as dist from c
                  where levenshtein(c.word, term) <= case when length(term) >= 7 then 2 else 1 end
                  order by c.word <-> term, c.word limit 6)
                 union all
                 select s.word, 1, null from search_words s
                 where s.word <> term and s.word = any(array(
                   select overlay(term placing substr(term, i + 1, 1) || substr(term, i, 1) from i for 2)
                   from generate_series(1, length(term) - 1) i))) u
               group by u.word order by min(u.part), min(u.dist), u.word) end
             , x.known_listings
      into known, known_q, near, known_listings
      from (select array_agg(lexeme) as known, sum(listings) as known_listings
            from (select lexeme, listings from search_lexemes
                  where lexeme ~>=~ term and lexeme ~<~ (left(term, -1) || chr(ascii(right(term, 1)) + 1)) and starts_with(lexeme, term)
                  order by lexeme using ~<~ limit 41) p) x;
      -- None known (a misspelling, or a word added since the last refresh): the prefix itself.
      if cardinality(known) between 1 and 40 then
        alt_matched := known_q || stem;
        lexemes := lexemes || known;
        lexeme_group := lexeme_group || array_fill(g, array[cardinality(known)]);
      elsif cardinality(known) > 40 then
        -- The prefix itself stays: more lexemes than this group can be counted for.
        unbounded := unbounded || g;
      end if;
      large := large or coalesce(known_listings, 0) >= 1000;
    else
      -- A short word is never looked up: it may be in most listings ("ai", "os").
      large := true;
    end if;
    if length(term) >= 4 then
      -- An unknown long word with nothing one edit away may carry two typos: the 6 nearest known
      -- words by trigram distance (a kNN walk of the GiST index) within two edits.
      -- (The lookup's condition apart: with it, the whole condition was a statement for every word.)
      if cardinality(near) = 0 and length(term) >= 7 then
        if not exists (select from search_words s where s.word = term) then
          near := array(
            select c.word from (select word from search_words order by word <-> term, word limit 6) c
            where c.word <> term and levenshtein(c.word, term) <= 2);
        end if;
      end if;
      foreach w in array near loop
        near_q := to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
        alt := alt || near_q;
        alt_matched := alt_matched || near_q;
        words := words || w;
      end loop;
    end if;
    ranked := case when ranked is null then alt else ranked && alt end;
    matched := case when matched is null then alt_matched else matched && alt_matched end;
    groups := groups || alt_matched;
    wide := wide or 2 * (cardinality(words) - cardinality(word_group)) + cardinality(lexemes) - lexemes_before >= 20;
    word_group := word_group || array_fill(g, array[cardinality(words) - cardinality(word_group)]);
  end loop;
  -- One group far rarer than another of many lexemes (or a prefix standing for more than are
  -- counted), or than another in 500 times its listings: the index finds the rare group's few
  -- listings and each is checked against the whole query (about 3.5 us a listing), instead of the
  -- index advancing every lexeme of the large group for each of them (about 0.4 us a lexeme: a
  -- common word's prefix spelled out as 39 lexemes was 10 ms of a 12 ms search at a million
  -- listings, and 11 lexemes cost about what checking does) or passing a common word's postings
  -- (about 6 ns each: "os" in 83,267 listings was 0.5-0.9 ms).
  -- A group's size is an upper bound: its lexemes' (words' and their stems') listings summed. One
  -- statement, and only for two terms or more, one of them wide, large or a prefix left as it is.
  if cardinality(groups) >= 2 and (wide or large or cardinality(unbounded) > 0) then
    with each as (
      -- Arrays read through sub-selects (as in summaries.ts): only a custom plan would see their lengths.
      select u.g, l.x from unnest((select words), (select word_group)) u (w, g)
      cross join lateral unnest(array[u.w] || tsvector_to_array(to_tsvector('english', u.w))) l (x)
      union
      select k.g, k.x from unnest((select lexemes), (select lexeme_group)) k (x, g)),
    per as (
      -- A probe of the primary key for each lexeme: a cached plan would otherwise hash every lexeme.
      select e.g, case when e.g = any(unbounded) then null
                       else coalesce(sum((select s.listings from search_lexemes s where s.lexeme = e.x)), 0) end as est, count(*) as size
      from each e group by e.g),
    rare as (select per.g, per.est from per where per.est is not null order by per.est, per.g limit 1)
    select rare.g into rarest from rare
    where rare.est <= 2000
      and exists (select from per where per.g <> rare.g and (per.est is null or (per.size >= 20 and per.est >= 8 * greatest(rare.est, 1))
                                                              or per.est >= 500 * greatest(rare.est, 1)));
    if rarest is not null then
      narrow := groups[rarest];
    end if;
  end if;
end $function$;
comment on function typo_tsqueries(q text, OUT ranked tsquery, OUT matched tsquery, OUT narrow tsquery) is 'The typo-tolerant tsquery of free text three ways: as ranked (terms as prefixes), as matched (a prefix spelled out as the known lexemes it stands for, when at most 40), and as narrow: the group of one term far rarer than another, for the index to find alone (null otherwise).';

CREATE OR REPLACE FUNCTION public.typo_tsquery(q text)
 RETURNS tsquery
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  select ranked from typo_tsqueries(q)
$function$;
comment on function typo_tsquery(q text) is 'Builds a tsquery from free text where each term may also match close spellings from mv_search_words.';

CREATE OR REPLACE FUNCTION public.word_deletions(w text)
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE STRICT
AS $function$
declare
  out text[] := array[w];
begin
  for i in 1 .. length(w) loop
    out := out || overlay(w placing '' from i for 1);
  end loop;
  return out;
end $function$;
comment on function word_deletions(w text) is 'A word and each spelling of it with one letter removed: two words one edit apart share one of them.';

CREATE OR REPLACE FUNCTION public.words_of(text[])
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ select coalesce(array_to_string($1, ' '), '') $function$;
comment on function words_of(text[]) is 'Keywords joined with spaces for the search vectors: array_to_string is only stable, this is immutable in practice.';

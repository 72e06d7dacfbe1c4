-- A search's typo correction planned by the edge. typo_tsqueries looked up each term's known
-- lexemes and near words and estimated its groups' sizes in statements of its own: 0.35-0.45 ms of
-- a long-tail search's 0.9-1.2 ms in PostgreSQL (2,500 words and 2,900 lexemes at 100k listings,
-- about 17,700 words at a million). The vocabulary is small and changes at most once a minute, so
-- an edge keeps a copy (sql/queries/search-vocabulary.ts), makes the same choices from it
-- (sql/queries/typo-plan.ts), and PostgreSQL only builds the tsqueries from them, in the same
-- expressions as typo_tsqueries: no statement runs. typo_tsqueries stays for what the edge does not
-- plan (text beyond ASCII, words whose parsing it does not mirror, an edge without a copy yet).
--
-- search_vocabulary.version moves whenever search_words or search_lexemes change, by any writer:
-- a search reads it in its own statement and is run again when its plan was made from another
-- version, so the rows found are always those of the vocabulary the statement sees.

create table search_vocabulary (
  id boolean primary key default true check (id),
  version bigint not null
);
insert into search_vocabulary (version) values (1);
comment on table search_vocabulary is 'One row: the version of search_words and search_lexemes, moved by every statement that changes either.';

create function note_search_vocabulary_change() returns trigger language plpgsql as $$
begin
  -- Only a statement that changed rows: the minute refresh merges on every run, mostly nothing.
  if tg_op = 'TRUNCATE' or exists (select from changed) then
    update search_vocabulary set version = version + 1;
  end if;
  return null;
end $$;
comment on function note_search_vocabulary_change is 'Trigger: moves search_vocabulary.version when a statement changed search_words or search_lexemes.';

do $$
declare
  t text;
begin
  foreach t in array array['search_words', 'search_lexemes'] loop
    execute format('create trigger %I after insert on %I referencing new table as changed for each statement execute function note_search_vocabulary_change()', t || '_inserted', t);
    execute format('create trigger %I after update on %I referencing new table as changed for each statement execute function note_search_vocabulary_change()', t || '_updated', t);
    execute format('create trigger %I after delete on %I referencing old table as changed for each statement execute function note_search_vocabulary_change()', t || '_deleted', t);
    execute format('create trigger %I after truncate on %I for each statement execute function note_search_vocabulary_change()', t || '_truncated', t);
  end loop;
end $$;

-- typo_tsqueries restated (0023) with one change: its near words come in a fixed order, which the
-- edge's plan follows. They were a union's, in its hash table's order, and ts_rank depends on the
-- order of a tsquery's operands where a term's prefix and its stem are the same word ("read":* and
-- "read"): it sorts them unstably and keeps one, and which (the prefix also matches "readi") could
-- halve a score. Now the 6 nearest as chosen (trigram distance, then spelling), then the swaps
-- not among them, by spelling.
create or replace function typo_tsqueries(q text, out ranked tsquery, out matched tsquery, out narrow tsquery) language plpgsql stable parallel safe as $$
declare
  terms text[];
  term text;
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
    has_content := numnode(plainto_tsquery('english', term)) > 0;
    exit when has_content;
  end loop;
  foreach term in array terms loop
    continue when has_content and numnode(plainto_tsquery('english', term)) = 0;
    -- One or two characters match whole words only: as prefixes they would match most listings.
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
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
        alt_matched := known_q || plainto_tsquery('english', term);
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
end $$;

-- The tsqueries of a planned search, built as typo_tsqueries builds them. terms: the terms kept,
-- one group each, in order; near and near_group: each group's near words, in order; known: per
-- group, its prefix's known lexemes as tsquery text ('a' | 'b', as typo_tsqueries casts them) or
-- null; narrow_group: the group to find alone, or null. Expressions only, no statement.
create function typo_tsqueries_planned(terms text[], near text[], near_group int[], known text[], narrow_group int,
                                       out ranked tsquery, out matched tsquery, out narrow tsquery)
language plpgsql stable parallel safe as $$
declare
  term text;
  alt tsquery;
  alt_matched tsquery;
  near_q tsquery;
begin
  for g in 1 .. coalesce(cardinality(terms), 0) loop
    term := terms[g];
    alt := to_tsquery('simple', quote_literal(term) || case when length(term) >= 3 then ':*' else '' end)
           || plainto_tsquery('english', term);
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
end $$;
comment on function typo_tsqueries_planned is 'typo_tsqueries'' three tsqueries from the choices an edge made with its copy of the vocabulary (sql/queries/typo-plan.ts).';

-- Typo correction by shared deletions instead of a trigram nearest-neighbour walk. Each search term
-- of 4 letters or more looked for its 6 nearest known words in search_words' GiST trigram index:
-- about 1 ms a term at 2,500 words, half of a long-tail search's time in PostgreSQL, and a walk that
-- visits more of the index as the vocabulary grows (descriptions bring tens of thousands of words).
--
-- Two words one edit apart (a letter changed, added or removed, or two neighbours swapped) always
-- share a spelling with at most one letter removed from each ("symmetric delete", as SymSpell
-- corrects). So search_words is indexed by each word's deletions (GIN over the array of the word and
-- its one-letter deletions) and a term's candidates are the words whose deletions meet its own: a
-- handful of exact index probes, whatever the vocabulary. The candidates are then held to the same
-- rules as before (one edit, two from 7 letters, or a swap), and the 6 nearest by trigram distance
-- are kept.
--
-- Every word within one edit was a candidate before only if the trigram walk reached it among its
-- first 6; now every such word is. Two edits (from 7 letters) are found this way only when they
-- share a deletion (a swap, a letter changed and one removed at the same place); an unknown long
-- term with no neighbour one edit away still gets the trigram walk, with its two edits, so a long
-- word with two typos is corrected as before.

-- PL/pgSQL, not SQL: a SQL function with a subquery is planned again at every call that is not
-- folded into a constant (0.6 ms, where the lookup it serves takes 0.05).
create function word_deletions(w text) returns text[] language plpgsql immutable parallel safe strict as $$
declare
  out text[] := array[w];
begin
  for i in 1 .. length(w) loop
    out := out || overlay(w placing '' from i for 1);
  end loop;
  return out;
end $$;
comment on function word_deletions is 'A word and each spelling of it with one letter removed: two words one edit apart share one of them.';

-- Written only by the minute refresh, read by every typo search: no pending list to scan on reads.
create index search_words_deletions on search_words using gin (word_deletions(word)) with (fastupdate = off);

-- Restated from 0013 with the correction above. PL/pgSQL caches a generic plan of each statement
-- after a few calls, so the prefix and swap lookups are written in forms such a plan still answers
-- from an index (under 0013's, the prefix lookup read every lexeme and the swap lookup every word).
create or replace function typo_tsqueries(q text, out ranked tsquery, out matched tsquery) language plpgsql stable parallel safe as $$
declare
  terms text[];
  term text;
  alt tsquery;
  alt_matched tsquery;
  known text[];
  w text;
  near text[];
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
      -- The prefix as a range in the pattern index's (byte) order, up to the term with its last
      -- letter's successor, so a cached generic plan still reads the index; which 41 come first
      -- does not matter, only whether there are more than 40.
      select array_agg(lexeme) into known
      from (select lexeme from search_lexemes
            where lexeme ~>=~ term and lexeme ~<~ (left(term, -1) || chr(ascii(right(term, 1)) + 1)) and starts_with(lexeme, term)
            order by lexeme using ~<~ limit 41) x;
      -- None known (a misspelling, or a word added since the last refresh): the prefix itself.
      if cardinality(known) between 1 and 40 then
        -- Cast, not to_tsquery: each lexeme as it is indexed, never re-parsed into several.
        alt_matched := (select string_agg(quote_literal(k), ' | ') from unnest(known) k)::tsquery || plainto_tsquery('english', term);
      end if;
    end if;
    if length(term) >= 4 then
      near := array(
        -- Known words sharing a deletion with the term, within one edit (two from 7 letters); the 6
        -- nearest by trigram distance, ties by spelling.
        select c.word from (
          select s.word from search_words s
          where word_deletions(s.word) && word_deletions(term) and s.word <> term
            and levenshtein(s.word, term) <= case when length(term) >= 7 then 2 else 1 end
          order by s.word <-> term, s.word limit 6) c
        union
        -- An adjacent swap ("notoin" -> "notion") is one typo, though Levenshtein counts two. As
        -- `= any(array)`, index probes: `in (select ...)` planned, once cached, as a hash join over
        -- every known word.
        select s.word from search_words s
        where s.word <> term and s.word = any(array(
          select overlay(term placing substr(term, i + 1, 1) || substr(term, i, 1) from i for 2)
          from generate_series(1, length(term) - 1) i)));
      -- An unknown long word with nothing one edit away may carry two typos: the 6 nearest known
      -- words by trigram distance (a kNN walk of the GiST index) within two edits.
      if cardinality(near) = 0 and length(term) >= 7 and not exists (select from search_words s where s.word = term) then
        near := array(
          select c.word from (select word from search_words order by word <-> term, word limit 6) c
          where c.word <> term and levenshtein(c.word, term) <= 2);
      end if;
      foreach w in array near loop
        alt := alt || to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
        alt_matched := alt_matched || to_tsquery('simple', quote_literal(w)) || plainto_tsquery('english', w);
      end loop;
    end if;
    ranked := case when ranked is null then alt else ranked && alt end;
    matched := case when matched is null then alt_matched else matched && alt_matched end;
  end loop;
end $$;
comment on function typo_tsqueries is 'The typo-tolerant tsquery of free text twice: as ranked (terms as prefixes) and as matched (a prefix spelled out as the known lexemes it stands for, when at most 40).';

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

-- Typo correction is planned in one place, at the edge (sql/queries/typo-plan.ts), from its copy
-- of search_words and search_lexemes; the database builds the tsqueries from the plan
-- (planned_tsqueries). Planned in PL/pgSQL, a one-typo search cost PostgreSQL about 0.5 ms more
-- (a third of its time there, measured on 100k listings), which the long tail of searches and
-- mixed traffic paid in throughput. The edge's copy follows a generation the minute refresh moves
-- (refresh_search_words, refresh_search_lexemes), read by each search: no triggers, no second planner.
drop function typo_tsquery(text);
drop function typo_tsqueries(text);
drop index search_words_deletions;
drop index search_words_trgm;
drop function word_deletions(text);
create sequence search_vocabulary_generation;
-- Called once, so its last_value moves with the first refresh too (before any call it reads 1, and after the first).
select nextval('search_vocabulary_generation');
comment on sequence search_vocabulary_generation is 'Moved by the refresh whenever search_words or search_lexemes changed: an edge whose copy of the vocabulary was read at another value reads it again.';

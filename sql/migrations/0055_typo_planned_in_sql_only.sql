-- Typo correction is planned in one place, typo_tsqueries. The edge's copy of the vocabulary and
-- its planner (0025) saved about 0.4 ms of PostgreSQL time a search, at the cost of a second
-- implementation kept in step by a version row and triggers; a one-typo search stays far inside
-- its 100 ms p99 without it.
drop function typo_tsqueries_planned(text[], text[], int[], text[], int);
drop trigger search_words_inserted on search_words;
drop trigger search_words_updated on search_words;
drop trigger search_words_deleted on search_words;
drop trigger search_words_truncated on search_words;
drop trigger search_lexemes_inserted on search_lexemes;
drop trigger search_lexemes_updated on search_lexemes;
drop trigger search_lexemes_deleted on search_lexemes;
drop trigger search_lexemes_truncated on search_lexemes;
drop function note_search_vocabulary_change();
drop table search_vocabulary;

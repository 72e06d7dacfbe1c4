import type { Sql } from '../sql/db.ts';
import { loadVocabulary } from '../sql/queries/search-vocabulary.ts';
import { planTypoSearch, type Vocabulary } from '../sql/queries/typo-plan.ts';

export interface TypoTsqueries {
  ranked: string | null;
  matched: string | null;
  narrow: string | null;
}

/**
 * A search's three tsqueries as text, as the search statement builds them: planned from a copy of
 * the vocabulary (read now unless one is given) and built by planned_tsqueries.
 */
export async function typoTsqueries(sql: Sql, q: string, vocabulary?: Vocabulary): Promise<TypoTsqueries> {
  const plan = planTypoSearch(vocabulary ?? (await loadVocabulary(sql)), q);
  const [row] = await sql<TypoTsqueries[]>`
    select ranked::text, matched::text, narrow::text
    from planned_tsqueries(${plan.terms}::text[], ${plan.near}::text[], ${plan.nearGroup}::int[], ${plan.known}::text[], ${plan.narrowGroup}::int)`;
  return row!;
}

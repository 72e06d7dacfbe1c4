import type { Sql } from './db.ts';

/**
 * A statement composed from parts as plain text and values, run as one prepared statement.
 *
 * postgres.js makes every tagged template a query object (a lazy Promise with its own state), even
 * one only ever embedded in another, and writes the whole text out again when it runs. A search
 * statement is composed from about thirty such parts on every call; with the request's query hooks
 * around them, composing it was about a fifth of the edge's time on a long-tail search. Here a
 * part is two arrays, and the text is joined once. Values become $1, $2, ... in order and are sent
 * as postgres.js sends a template's values (the same type inference), so the text, and with it the
 * server's prepared statement and cached plan, are those of the template it replaces.
 */
export class Statement {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/** A part: parts embed as their text; anything else is a value. */
export const stmt = (strings: TemplateStringsArray, ...values: unknown[]): Statement => new Statement(strings, values);

/** Fixed text written into the statement as it is: never from input. */
export const raw = (text: string): Statement => new Statement([text], []);

export const EMPTY: Statement = raw('');

/** The statement's text with $n placeholders, and its values in their order. */
export function render(s: Statement): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const walk = (part: Statement): string => {
    let text = part.strings[0]!;
    for (let i = 0; i < part.values.length; i++) {
      const v = part.values[i];
      text += (v instanceof Statement ? walk(v) : `$${values.push(v)}`) + part.strings[i + 1]!;
    }
    return text;
  };
  return { text: walk(s), values };
}

/** Runs the statement as a prepared one on the pool (through its query hooks, as a template runs). */
export function run<T extends object>(sql: Sql, s: Statement): Promise<T[]> {
  const { text, values } = render(s);
  return sql.unsafe(text, values as never[], { prepare: true }) as unknown as Promise<T[]>;
}

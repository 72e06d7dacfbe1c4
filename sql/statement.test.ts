import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../test/db.ts';
import { connect } from './db.ts';
import { EMPTY, raw, render, run, stmt } from './statement.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db?.drop());

test('parts embed as their text and values become $n in the order they are written', () => {
  const inner = stmt`b = ${2} and c = ${'three'}`;
  const { text, values } = render(stmt`select ${raw('x')} from t where a = ${1} and ${inner}${EMPTY} or d = ${[4, 5]}`);
  expect(text).toBe('select x from t where a = $1 and b = $2 and c = $3 or d = $4');
  expect(values).toEqual([1, 2, 'three', [4, 5]]);
});

test('a statement runs prepared, with values sent as a template sends them', async () => {
  // One connection: prepared statements are the session's own.
  const one = connect(db.url, { max: 1 });
  try {
    const values = [7, 'text', null, ['a', 'b'], [1, 2], true] as const;
    const built = await run<Record<string, unknown>>(
      one,
      stmt`select ${values[0]}::int as n, ${values[1]}::text as s, ${values[2]}::text as z, ${values[3]}::text[] as arr, ${values[4]}::int[] as nums, ${values[5]}::bool as b`,
    );
    const template =
      await db.sql`select ${values[0]}::int as n, ${values[1]}::text as s, ${values[2]}::text as z, ${values[3]}::text[] as arr, ${values[4]}::int[] as nums, ${values[5]}::bool as b`;
    expect([...built]).toEqual([...template]);
    expect(built[0]).toEqual({ n: 7, s: 'text', z: null, arr: ['a', 'b'], nums: [1, 2], b: true });
    // Prepared: the server holds it under its text.
    const [{ n }] = await one<{ n: number }[]>`select count(*)::int as n from pg_prepared_statements where statement like '%$6::bool as b'`;
    expect(n).toBe(1);
  } finally {
    await one.end();
  }
});

import { expect, test } from 'bun:test';
import 'elysia'; // registers Elysia's own, looser string formats on import
import { FormatRegistry } from '@sinclair/typebox';
import './validate.ts';

test("the API's string formats are ours, whichever module registered first", () => {
  const date = FormatRegistry.Get('date')!;
  expect(['2020-01-05', '2024-02-29'].map(date)).toEqual([true, true]);
  // Elysia's date format accepts these; the spec's YYYY-MM-DD does not (and month 13 must not throw).
  expect(['2020/1/5', 'Sun Jan 05 2020 00:00:00 GMT+0000 (UTC)', '2020-01-05T00:00:00Z', '2020-13-01', '2023-02-29'].map(date)).toEqual([
    false,
    false,
    false,
    false,
    false,
  ]);
});

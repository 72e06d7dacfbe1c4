import { describe, expect, test } from 'bun:test';
import 'elysia'; // registers Elysia's own, looser string formats on import
import { FormatRegistry } from '@sinclair/typebox';
import { DomainError } from '../../core/errors/index.ts';
import { operations } from '../registry/index.ts';
import { validateInput } from './validate.ts';

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

describe('field messages', () => {
  const search = operations.find((o) => o.name === 'search_listings')!;
  const messages = (query: Record<string, unknown>) => {
    try {
      validateInput(search, { query }, { convert: true });
      return {};
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return Object.fromEntries(err.fields.map((f) => [f.field, f.message]));
    }
  };

  test('an enum names the values it takes', () => {
    expect(messages({ sort: 'bad', status: 'gone' })).toEqual({
      sort: 'expected one of "relevance", "newest", "votes", "trending", "most_viewed", "most_followed"',
      status: 'expected one of "live", "upcoming"',
    });
  });

  test("a pattern is quoted as the schema has it, and only the message's first letter is lowered", () => {
    expect(messages({ country: 'USA' })).toEqual({ country: "expected string to match '^[A-Za-z]{2}$'" });
    expect(messages({ per_page: '101', unknown: 'x' })).toEqual({ per_page: 'expected integer to be less or equal to 100', unknown: 'is not a known field' });
  });

  test('another union says what each alternative wants of the value', () => {
    const update = operations.find((o) => o.name === 'update_my_listing')!;
    const fieldsOf = (body: unknown) => {
      try {
        validateInput(update, { path: { listing_id: '1' }, body }, { convert: true });
        return {};
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return Object.fromEntries(err.fields.map((f) => [f.field, f.message]));
      }
    };
    expect(fieldsOf({ fields: { founded_year: 1700 } })).toEqual({ 'fields.founded_year': 'expected integer to be greater or equal to 1800, or null' });
    expect(fieldsOf({ fields: { founded_year: 'soon' } })).toEqual({ 'fields.founded_year': 'expected integer, or null' });
  });
});

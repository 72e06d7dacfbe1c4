import { expect, test } from 'bun:test';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { serializedList } from './operation.ts';

// A list answer written around its items' JSON text (search_listings) is the object form's JSON,
// and carries its page for the Link header, so the edge never parses the text back to find it.
test('a serialized list is the list answer as JSON, with its page beside it', () => {
  const items = '[{"id" : 1, "name" : "A \\"quoted\\" name"}, {"id" : 2, "name" : "B"}]';
  for (const [page, perPage, total] of [
    [1, 2, 5],
    [3, 2, 5],
    [1, 20, 0],
  ] as const) {
    const info = pageInfo(page, perPage, total);
    const out = serializedList(items, info);
    expect(JSON.parse(out.json)).toEqual({ items: JSON.parse(items), ...info });
    expect(Object.keys(JSON.parse(out.json))).toEqual(['items', 'page', 'per_page', 'total', 'has_more']);
    expect(out.paging).toEqual({ page, has_more: info.has_more });
  }
});

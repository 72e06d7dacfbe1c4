import { expect, test } from 'bun:test';
import { renderMarkdown } from './markdown.ts';

test('links in rendered text carry rel="nofollow ugc noopener", replacing any rel of their own', () => {
  const html = renderMarkdown('See [us](https://ledgerly.example/) and <a href="https://x.example/" rel="me">x</a>.');
  const rels = [...html.matchAll(/<a [^>]*>/g)].map((m) => /rel="([^"]*)"/.exec(m[0])?.[1]);
  expect(rels).toEqual(['nofollow ugc noopener', 'nofollow ugc noopener']);
});

import { describe, expect, test } from 'bun:test';
import { byPriority, pageScore } from './page-priority.ts';

const at = (path: string) => `https://acme.test${path}`;

describe('pageScore', () => {
  test('fact pages outrank everything else', () => {
    for (const path of ['/', '/about', '/pricing', '/faq', '/contact', '/team', '/blog', '/company', '/features']) {
      expect(pageScore(at(path))).toBeGreaterThan(pageScore(at('/some-random-post')));
    }
  });

  test('variants count as the same page', () => {
    expect(pageScore(at('/About/'))).toBe(pageScore(at('/about')));
    expect(pageScore(at('/about.html'))).toBe(pageScore(at('/about')));
    expect(pageScore(at('/en/pricing'))).toBe(pageScore(at('/pricing')));
    expect(pageScore(at('/index.html'))).toBe(pageScore(at('/')));
  });

  test('shallow unknown pages before deep ones, never below 1', () => {
    expect(pageScore(at('/x'))).toBeGreaterThan(pageScore(at('/x/y/z')));
    expect(pageScore(at('/a/b/c/d/e/f/g'))).toBe(1);
    expect(pageScore('not a url')).toBe(0);
  });
});

describe('byPriority', () => {
  test('orders by score, keeping discovery order among equals', () => {
    const urls = ['/post-1', '/blog', '/post-2', '/pricing', '/', '/about'].map(at);
    expect(byPriority(urls)).toEqual(['/', '/about', '/pricing', '/blog', '/post-1', '/post-2'].map(at));
  });
});

import { expect, test } from 'bun:test';
import { planLinks, readMemo } from './read-memo.ts';

test('a remembered plan is found by its URL, and its input cannot be changed', () => {
  const memo = readMemo(10);
  const plan = memo.remember('http://x/api/v1/listings?q=a', { q: 'a', tags: ['x'] }, 'search:{"q":"a"}');
  expect(memo.get('http://x/api/v1/listings?q=a')).toBe(plan);
  expect(memo.get('http://x/api/v1/listings?q=b')).toBeUndefined();
  expect(() => {
    (plan.input as { q: string }).q = 'b';
  }).toThrow();
  expect(() => (plan.input.tags as string[]).push('y')).toThrow();
  expect(plan.input.q).toBe('a');
});

test('the memo is bounded: when full it starts over', () => {
  const memo = readMemo(3);
  for (let i = 0; i < 3; i++) memo.remember(`u${i}`, {}, `k${i}`);
  expect(memo.get('u0')).toBeDefined();
  memo.remember('u3', {}, 'k3');
  expect(memo.get('u0')).toBeUndefined();
  expect(memo.get('u3')?.key).toBe('k3');
});

test('page links are rebuilt only when the page or has_more change', () => {
  const plan = readMemo().remember('u', {}, 'k');
  let built = 0;
  const build = (p: { page: number; has_more: boolean } | undefined) => {
    built++;
    return p ? `page ${p.page} more ${p.has_more}` : null;
  };
  expect(planLinks(plan, { page: 2, has_more: true }, build)).toBe('page 2 more true');
  expect(planLinks(plan, { page: 2, has_more: true }, build)).toBe('page 2 more true');
  expect(built).toBe(1);
  expect(planLinks(plan, { page: 2, has_more: false }, build)).toBe('page 2 more false');
  expect(built).toBe(2);
  expect(planLinks(plan, undefined, build)).toBeNull();
});

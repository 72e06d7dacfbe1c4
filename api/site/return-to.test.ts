import { expect, test } from 'bun:test';
import { safeReturnTo } from './return-to.ts';

const SITE = 'https://directory.test';

test('keeps paths on this site, with their query and fragment', () => {
  expect(safeReturnTo('/account/api-keys', SITE)).toBe('/account/api-keys');
  expect(safeReturnTo('/oauth/authorize?client_id=a&scope=account%3Aread#x', SITE)).toBe('/oauth/authorize?client_id=a&scope=account%3Aread#x');
  expect(safeReturnTo('/a/./b/../c', SITE)).toBe('/a/c');
});

test('anything that could leave the site falls back to /account', () => {
  for (const bad of [
    '//evil.com',
    '///evil.com',
    'https://evil.com',
    'http://directory.test.evil.com/',
    '/\\evil.com',
    '\\/evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    ' /account',
    'javascript:alert(1)',
    'evil.com',
    '',
    '/a/../..//evil.com',
    `/${'a'.repeat(2048)}`,
  ]) {
    expect(safeReturnTo(bad, SITE)).toBe('/account');
  }
  expect(safeReturnTo(null, SITE)).toBe('/account');
  expect(safeReturnTo(['/x'], SITE)).toBe('/account');
});

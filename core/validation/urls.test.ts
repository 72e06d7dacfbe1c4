import { expect, test } from 'bun:test';
import { emailPattern, HTTPS_RULE, isAllowedUrl, isEmail, socialRule, urlPattern, VIDEO_RULE } from './urls.ts';
import { bodyIssues } from './limits.ts';

const matches = (pattern: string, v: string) => new RegExp(pattern).test(v);

test('URL rules: absolute http(s) only, platform hosts, https for milestones; the pattern and the code agree', () => {
  const cases: [string, Parameters<typeof isAllowedUrl>[1], boolean][] = [
    ['https://example.com/logo.png', {}, true],
    ['http://example.com', {}, true],
    ['javascript:alert(1)', {}, false],
    ['data:text/html,x', {}, false],
    ['not a url', {}, false],
    ['//example.com', {}, false],
    ['https://x.com@evil.example/', socialRule('x'), false],
    ['https://user:pw@example.com/', {}, false],
    ['https://www.linkedin.com/company/acme', socialRule('linkedin'), true],
    ['https://evil-linkedin.com/x', socialRule('linkedin'), false],
    ['https://linkedin.com.evil.example/x', socialRule('linkedin'), false],
    ['https://twitter.com/acme', socialRule('x'), true],
    ['https://github.com/acme', socialRule('github'), true],
    ['https://gitlab.com/acme', socialRule('github'), false],
    ['https://anything.example/', socialRule('website'), true],
    ['https://www.youtube.com/watch?v=1', VIDEO_RULE, true],
    ['https://acme.wistia.com/medias/1', VIDEO_RULE, true],
    ['https://example.com/video.mp4', VIDEO_RULE, false],
    ['http://example.com/post', HTTPS_RULE, false],
    ['https://example.com/post', HTTPS_RULE, true],
  ];
  for (const [v, rule, ok] of cases) {
    expect([v, isAllowedUrl(v, rule)]).toEqual([v, ok]);
    if (!v.includes('@')) expect([v, matches(urlPattern(rule), v)]).toEqual([v, ok]);
    else expect(matches(urlPattern(rule), v)).toBe(false);
  }
  expect(matches(urlPattern({}, { blank: true }), '')).toBe(true);
  expect(matches(urlPattern({}, { blank: true }), '  ')).toBe(true);
});

test('e-mail fields take e-mail addresses only', () => {
  expect(isEmail('a@example.com')).toBe(true);
  expect(isEmail('javascript:alert(1)')).toBe(false);
  expect(isEmail('a@b')).toBe(false);
  expect(matches(emailPattern({ blank: true }), '')).toBe(true);
  expect(matches(emailPattern({ blank: true }), 'x')).toBe(false);
});

test('body limits: depth, sizes, NUL and lone surrogates, checked without recursion', () => {
  let deep: unknown = [];
  for (let i = 0; i < 50_000; i++) deep = [deep];
  expect(bodyIssues({ fields: deep })[0]!.message).toContain('nested deeper');
  expect(bodyIssues({ a: 'x\u0000' })).toEqual([{ field: 'a', message: 'must not contain the NUL character (U+0000)' }]);
  expect(bodyIssues({ a: 'x\uD800y' })[0]!.message).toContain('surrogate');
  expect(bodyIssues({ a: 'x\uDC00' })[0]!.message).toContain('surrogate');
  expect(bodyIssues({ a: '🙂 ä' })).toEqual([]);
  expect(bodyIssues({ a: new Array(5000).fill(1) })[0]!.message).toContain('more than');
  expect(bodyIssues({ a: 'x'.repeat(200_000) })[0]!.message).toContain('longer than');
});

import { describe, expect, test } from 'bun:test';
import { MAX_CRAWL_DELAY_MS, parseRobots, productToken } from './robots.ts';

const UA = 'LaunchpadDirectoryBot/1.0 (+https://directory.example/bot)';
const URL_ = 'https://acme.test/robots.txt';

describe('productToken', () => {
  test('takes the product name of a User-Agent', () => {
    expect(productToken(UA)).toBe('LaunchpadDirectoryBot');
    expect(productToken('LaunchpadDirectoryBot')).toBe('LaunchpadDirectoryBot');
    expect(productToken('  Foo-Bot (x)')).toBe('Foo-Bot');
  });
});

describe('parseRobots', () => {
  const rules = (text: string) => {
    const parsed = parseRobots(URL_, text, UA);
    if (parsed.kind !== 'rules') throw new Error('expected rules');
    return parsed;
  };

  test('applies the group for our token, not the others', () => {
    const parsed = rules('User-agent: *\nDisallow: /\n\nUser-agent: LaunchpadDirectoryBot\nDisallow: /private\n');
    expect(parsed.isAllowed('https://acme.test/about')).toBe(true);
    expect(parsed.isAllowed('https://acme.test/private/x')).toBe(false);
  });

  test('falls back to the * group', () => {
    const parsed = rules('User-agent: *\nDisallow: /tmp\n');
    expect(parsed.isAllowed('https://acme.test/tmp/a')).toBe(false);
    expect(parsed.isAllowed('https://acme.test/')).toBe(true);
  });

  test('longest match wins between Allow and Disallow', () => {
    const parsed = rules('User-agent: *\nDisallow: /docs\nAllow: /docs/public\n');
    expect(parsed.isAllowed('https://acme.test/docs/public/a')).toBe(true);
    expect(parsed.isAllowed('https://acme.test/docs/secret')).toBe(false);
  });

  test('an empty file allows everything, with no delay', () => {
    const parsed = rules('');
    expect(parsed.isAllowed('https://acme.test/anything')).toBe(true);
    expect(parsed.crawlDelayMs).toBe(0);
  });

  test('Crawl-delay in seconds, capped', () => {
    expect(rules('User-agent: LaunchpadDirectoryBot\nCrawl-delay: 1.5\n').crawlDelayMs).toBe(1500);
    expect(rules('User-agent: *\nCrawl-delay: 3600\n').crawlDelayMs).toBe(MAX_CRAWL_DELAY_MS);
    expect(rules('User-agent: OtherBot\nCrawl-delay: 5\n').crawlDelayMs).toBe(0);
  });
});

import { describe, expect, test } from 'bun:test';
import { containsPhrase, normaliseText, support, truncateWords, urlKey } from './normalise.ts';
import { countryCode, countryNames, isCountryCode } from './countries.ts';
import { statedDates } from './field-rules.ts';
import { isVideoUrl, pricingModelOf, socialPlatformOf } from './vocabulary.ts';

describe('normal forms', () => {
  test('normaliseText folds entities, NFKC, quotes, dashes, zero-width characters, case and whitespace', () => {
    expect(normaliseText('  It’s “FREE” &amp; open\u00a0source\u2014really\u200b!  \n ﬁne ')).toBe('it\'s "free" & open source-really! fine');
  });

  test('containsPhrase respects word boundaries', () => {
    expect(containsPhrase('founded in 2019.', '2019')).toBe(true);
    expect(containsPhrase('founded in 20190.', '2019')).toBe(false);
    expect(containsPhrase('a start', 'art')).toBe(false);
    expect(containsPhrase('email hello@acme.test now', 'hello@acme.test')).toBe(true);
  });

  test('support counts content words by stem and needs every number', () => {
    expect(support('Manages projects for teams', ['Project management for small teams']).ratio).toBe(1);
    expect(support('From $15 a month', ['From $12 a month']).numbersOk).toBe(false);
  });

  test('urlKey ignores scheme, www, trailing slash and fragment', () => {
    expect(urlKey('https://www.X.com/acme/#top')).toBe(urlKey('http://x.com/acme'));
    expect(urlKey('mailto:a@b.c')).toBeNull();
    expect(urlKey('/about', 'https://acme.test/x')).toBe('acme.test/about');
  });

  test('truncateWords cuts at a word and marks the cut', () => {
    expect(truncateWords('one two three four', 12)).toBe('one two…');
    expect(truncateWords('short', 12)).toBe('short');
  });
});

describe('countries', () => {
  test('names and aliases map to ISO codes; withdrawn and reserved codes are no countries', () => {
    expect(countryCode('Germany')).toBe('DE');
    expect(countryCode('the Netherlands')).toBe('NL');
    expect(countryCode('USA')).toBe('US');
    expect(countryCode('U.K.')).toBe('GB');
    expect(countryCode('Texas')).toBeNull();
    expect(countryNames('de')).toContain('germany');
    for (const code of ['DD', 'UK', 'SU', 'EU', 'ZZ', 'QO']) expect(isCountryCode(code)).toBe(false);
  });
});

describe('stated dates', () => {
  test('each date as precise as written, not also as a coarser one', () => {
    expect(statedDates('15 March 2021')).toEqual([{ year: 2021, month: 3, day: 15 }]);
    expect(statedDates('March 15, 2021 and 2019')).toEqual([
      { year: 2021, month: 3, day: 15 },
      { year: 2019, month: null, day: null },
    ]);
    expect(statedDates('Sept 2020: beta')).toEqual([{ year: 2020, month: 9, day: null }]);
    expect(statedDates('2023-06-15')).toEqual([{ year: 2023, month: 6, day: 15 }]);
  });
});

describe('vocabulary', () => {
  test('pricing models from the words on the page', () => {
    expect(pricingModelOf('Free\n$0\nPro\n$12 per month')).toBe('Freemium');
    expect(pricingModelOf('Pro $12 per month. 14-day free trial.')).toBe('Subscription');
    expect(pricingModelOf('Lifetime deal: $99 one-time')).toBe('One-time payment');
    expect(pricingModelOf('Free forever')).toBe('Free');
    expect(pricingModelOf('Talk to us')).toBeNull();
  });

  test('social profiles by host, never share links', () => {
    expect(socialPlatformOf('https://twitter.com/acme')).toBe('x');
    expect(socialPlatformOf('https://de.linkedin.com/company/acme')).toBe('linkedin');
    expect(socialPlatformOf('https://twitter.com/intent/tweet?text=hi')).toBeNull();
    expect(socialPlatformOf('https://www.facebook.com/sharer/sharer.php?u=x')).toBeNull();
    expect(socialPlatformOf('https://github.com/')).toBeNull();
    expect(socialPlatformOf('https://notgithub.com/acme')).toBeNull();
  });

  test('video links', () => {
    expect(isVideoUrl('https://youtu.be/abc')).toBe(true);
    expect(isVideoUrl('https://www.youtube.com/watch?v=abc')).toBe(true);
    expect(isVideoUrl('https://www.youtube.com/@acme')).toBe(false);
    expect(isVideoUrl('https://acme.test/demo.mp4')).toBe(true);
    expect(isVideoUrl('https://acme.test/demo')).toBe(false);
  });
});

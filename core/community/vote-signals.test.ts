import { describe, expect, test } from 'bun:test';
import { networkOf, uaFamilyOf } from './vote-signals.ts';

describe('vote signals', () => {
  test('an address becomes its /24 or /48 network', () => {
    expect(networkOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd::/48');
    expect(networkOf('unknown')).toBeNull();
  });

  test('a user agent becomes its browser family', () => {
    expect(uaFamilyOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36')).toBe('chrome');
    expect(uaFamilyOf('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe('firefox');
    expect(uaFamilyOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15')).toBe('safari');
    expect(uaFamilyOf('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).toBe('bot');
    expect(uaFamilyOf('curl/8.4.0')).toBe('bot');
    expect(uaFamilyOf(null)).toBe('none');
  });
});

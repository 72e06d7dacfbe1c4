import { describe, expect, test } from 'bun:test';
import { DomainError } from '../errors/index.ts';
import { normaliseSubmittedUrl } from './submitted-url.ts';

const ok = (raw: string, allowLoopback = false) => normaliseSubmittedUrl(raw, 'url', { allowLoopback });
const refused = (raw: string, allowLoopback = false) => {
  try {
    ok(raw, allowLoopback);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).kind).toBe('invalid');
    expect((e as DomainError).fields[0].field).toBe('url');
    return (e as DomainError).fields[0].message;
  }
  throw new Error(`expected ${raw} to be refused`);
};

describe('submitted URLs', () => {
  test('are normalised: bare domains get https, host lower case, fragment dropped, www. not part of the domain', () => {
    expect(ok('  Acme.COM/Pricing#top ')).toEqual({ url: 'https://acme.com/Pricing', domain: 'acme.com' });
    expect(ok('http://WWW.acme.com')).toEqual({ url: 'http://www.acme.com/', domain: 'acme.com' });
    expect(ok('https://acme.com:8443/a?b=1')).toEqual({ url: 'https://acme.com:8443/a?b=1', domain: 'acme.com' });
  });

  test('only public http(s) websites are accepted', () => {
    for (const raw of ['ftp://acme.com/', 'javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@acme.com/']) refused(raw);
    for (const raw of [
      'http://10.0.0.1/',
      'http://192.168.1.20/',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://[::ffff:10.0.0.1]/',
      'http://0.0.0.0/',
    ]) {
      expect(refused(raw)).toContain('public');
    }
    for (const raw of ['http://localhost/', 'https://printer.local/', 'https://wiki.internal/', 'https://intranet/']) expect(refused(raw)).toContain('public');
    expect(refused(`https://acme.com/${'a'.repeat(2048)}`)).toContain('2048');
  });

  test('loopback passes only when the loopback setting is on (tests)', () => {
    refused('http://127.0.0.1:8080/');
    expect(ok('http://127.0.0.1:8080/', true)).toEqual({ url: 'http://127.0.0.1:8080/', domain: '127.0.0.1' });
    expect(ok('http://localhost:8080/', true).domain).toBe('localhost');
    expect(refused('http://10.1.2.3/', true)).toContain('public');
  });
});

test('hosts that are not domain names are refused', () => {
  for (const raw of [
    '../../etc/passwd',
    'https://../x',
    'https://a..b.com/',
    'https://-bad.com/',
    'https://bad-.com/',
    'https://under_score.com/',
    `https://${'a'.repeat(64)}.com/`,
    'https://example.123/',
  ]) {
    expect(() => normaliseSubmittedUrl(raw, 'url', { allowLoopback: false })).toThrow();
  }
  for (const raw of ['https://bücher.de/', 'acme.io', 'https://sub.example.co.uk/path?q=1', 'https://xn--bcher-kva.de']) {
    expect(() => normaliseSubmittedUrl(raw, 'url', { allowLoopback: false })).not.toThrow();
  }
});

// Policy checks only: no DNS, no connections.
import { describe, expect, test } from 'bun:test';
import { checkAddress, checkUrl, UnsafeUrlError, type UnsafeReason } from './address-policy.ts';

function reasonOf(run: () => unknown): UnsafeReason | 'allowed' {
  try {
    run();
    return 'allowed';
  } catch (error) {
    if (error instanceof UnsafeUrlError) return error.reason;
    throw error;
  }
}

const refusedAddresses = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.1/',
  'http://0177.0.0.1/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://255.255.255.255/',
  'http://224.0.0.1/',
  'http://198.18.0.1/',
  'http://240.0.0.1/',
  'http://[::1]/',
  'http://[::]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::a00:1]/',
  'http://[2002:7f00:1::]/',
  'http://[2001::1]/',
  'http://[2001:db8::1]/',
  'http://[ff02::1]/',
  'http://[::7f00:1]/',
  'https://127.0.0.1:8443/',
  'http://127.0.0.1:0/',
];

describe('checkUrl refuses', () => {
  for (const url of refusedAddresses) {
    test(`${url} → address`, () => expect(reasonOf(() => checkUrl(url))).toBe('address'));
  }
  for (const url of ['ftp://x/', 'file:///etc/passwd', 'gopher://127.0.0.1:70/', 'javascript:alert(1)', 'data:text/plain,hi', 'not a url']) {
    test(`${url} → scheme`, () => expect(reasonOf(() => checkUrl(url))).toBe('scheme'));
  }
  for (const url of ['http://user:pw@example.com/', 'http://user@example.com/', 'https://:pw@example.com/']) {
    test(`${url} → credentials`, () => expect(reasonOf(() => checkUrl(url))).toBe('credentials'));
  }
});

describe('checkUrl allows', () => {
  test('public IPv4 literal', () => {
    expect(checkUrl('http://93.184.216.34/page').literal).toBe('93.184.216.34');
  });
  test('public IPv6 literal, any port', () => {
    const checked = checkUrl('https://[2606:4700::1111]:8443/');
    expect(checked.literal).toBe('2606:4700::1111');
    expect(checked.host).toBe('2606:4700::1111');
  });
  test('a host name is left for resolving', () => {
    const checked = checkUrl('https://Example.COM/a?b#c');
    expect(checked.literal).toBeNull();
    expect(checked.host).toBe('example.com');
  });
  test('IPv4-mapped public address is normalised to IPv4', () => {
    expect(checkUrl('http://[::ffff:93.184.216.34]/').literal).toBe('93.184.216.34');
  });
});

describe('allowLoopback', () => {
  const policy = { allowLoopback: true };
  test('allows 127.0.0.0/8, ::1 and mapped loopback', () => {
    expect(checkUrl('http://127.0.0.1:8080/', policy).literal).toBe('127.0.0.1');
    expect(checkUrl('http://127.1/', policy).literal).toBe('127.0.0.1');
    expect(checkUrl('http://[::1]/', policy).literal).toBe('::1');
    expect(checkUrl('http://[::ffff:127.0.0.1]/', policy).literal).toBe('127.0.0.1');
  });
  test('allows nothing else extra', () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://0.0.0.0/', 'http://[::]/', 'http://[fe80::1]/', 'http://[64:ff9b::7f00:1]/']) {
      expect(reasonOf(() => checkUrl(url, policy))).toBe('address');
    }
  });
});

describe('checkAddress (resolved records)', () => {
  test('refuses private and odd records, accepts public ones', () => {
    expect(reasonOf(() => checkAddress('10.1.2.3'))).toBe('address');
    expect(reasonOf(() => checkAddress('::ffff:192.168.0.1'))).toBe('address');
    expect(reasonOf(() => checkAddress('not-an-ip'))).toBe('address');
    expect(checkAddress('8.8.8.8')).toBe('8.8.8.8');
    expect(checkAddress('2606:4700::1111')).toBe('2606:4700::1111');
  });
});

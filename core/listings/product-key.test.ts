import { describe, expect, test } from 'bun:test';
import { isSharedHost, productKey } from './product-key.ts';

describe('productKey', () => {
  test('the host without www., whatever the path, scheme or case', () => {
    expect(productKey('https://www.Ledgerly.io/pricing?x=1')).toBe('ledgerly.io');
    expect(productKey('http://ledgerly.io/')).toBe('ledgerly.io');
    expect(productKey('https://app.ledgerly.io/')).toBe('app.ledgerly.io');
    // A site is its origin: another port is another site; the scheme's own port is no port.
    expect(productKey('http://127.0.0.1:8080/')).toBe('127.0.0.1:8080');
    expect(productKey('https://ledgerly.io:443/')).toBe('ledgerly.io');
    expect(productKey('https://ledgerly.io:8443/app')).not.toBe(productKey('https://ledgerly.io/app'));
  });

  test('path-shared hosts add the first path segment', () => {
    expect(productKey('https://github.com/Acme/tool')).toBe('github.com/acme');
    expect(productKey('https://www.github.com/acme')).toBe('github.com/acme');
    expect(productKey('https://gitlab.com/acme/tool/-/tree/main')).toBe('gitlab.com/acme');
    expect(productKey('https://acme.notion.site/Roadmap-123')).toBe('acme.notion.site/roadmap-123');
    expect(productKey('https://github.com/')).toBe('github.com');
  });

  test('subdomain platforms: one product per subdomain; project pages add the first segment', () => {
    expect(productKey('https://acme.vercel.app/docs')).toBe('acme.vercel.app');
    expect(productKey('https://acme.netlify.app/')).toBe('acme.netlify.app');
    expect(productKey('https://acme.github.io/tool/')).toBe('acme.github.io/tool');
    expect(productKey('https://acme.github.io/')).toBe('acme.github.io');
  });

  test('shared hosts are known as such', () => {
    for (const h of ['github.com', 'acme.vercel.app', 'acme.github.io', 'notion.site', 'www.gitlab.com']) expect(isSharedHost(h), h).toBe(true);
    for (const h of ['ledgerly.io', 'vercel.com', 'notgithub.com']) expect(isSharedHost(h), h).toBe(false);
  });
});

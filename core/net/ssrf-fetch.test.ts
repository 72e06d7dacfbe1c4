// Real local servers on loopback only; addresses outside loopback are refused before any
// connection, which the server logs and the reasons below prove.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSafeFetcher, UnsafeUrlError, type SafeFetcherOptions } from './ssrf-fetch.ts';

const seen: { path: string; host: string | null; userAgent: string | null; accept: string | null }[] = [];
let server: ReturnType<typeof Bun.serve>;
let base = '';

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url);
      seen.push({ path: url.pathname, host: request.headers.get('host'), userAgent: request.headers.get('user-agent'), accept: request.headers.get('accept') });
      const chain = /^\/r\/(\d+)$/.exec(url.pathname);
      if (chain) {
        const n = Number(chain[1]);
        return n === 0 ? new Response('end of chain') : new Response(null, { status: 302, headers: { Location: `/r/${n - 1}` } });
      }
      switch (url.pathname) {
        case '/page':
          return new Response('<h1>hello</h1>', { headers: { 'Content-Type': 'text/html' } });
        case '/host':
          return new Response(`host=${request.headers.get('host')}`);
        case '/to-private':
          return Response.redirect('http://10.0.0.1/admin', 302);
        case '/to-metadata':
          return new Response(null, { status: 307, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } });
        case '/to-file':
          return new Response(null, { status: 301, headers: { Location: 'file:///etc/passwd' } });
        case '/to-page':
          return new Response(null, { status: 308, headers: { Location: '/page' } });
        case '/big-declared':
          return new Response('x'.repeat(4096));
        case '/big-streamed':
          return new Response(
            new ReadableStream({
              pull(controller) {
                controller.enqueue(new Uint8Array(1024).fill(120));
              },
            }),
          );
        case '/hang':
          return new Promise<Response>(() => {});
        case '/slow-body':
          return new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode('first chunk'));
              },
            }),
          );
        default:
          return new Response('not found', { status: 404 });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(() => {
  server.stop(true);
});

const fetcher = (extra: Partial<SafeFetcherOptions> = {}) =>
  createSafeFetcher({ allowLoopback: true, userAgent: 'ListingBot/1.0 (+test)', timeoutMs: 3000, ...extra });

async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    if (error instanceof UnsafeUrlError) return error.reason;
    throw error;
  }
  throw new Error('expected the fetch to be refused');
}

const text = (body: Uint8Array) => new TextDecoder().decode(body);
const hits = (path: string) => seen.filter((entry) => entry.path === path).length;

describe('safeFetch on loopback (allowLoopback)', () => {
  test('a plain page: status, body, final URL, User-Agent and Accept sent', async () => {
    const response = await fetcher()(`${base}/page`, { accept: 'text/html' });
    expect(response.status).toBe(200);
    expect(text(response.body)).toBe('<h1>hello</h1>');
    expect(response.url).toBe(`${base}/page`);
    expect(response.redirects).toEqual([]);
    expect(response.headers.get('content-type')).toBe('text/html');
    const last = seen.findLast((entry) => entry.path === '/page')!;
    expect(last.userAgent).toBe('ListingBot/1.0 (+test)');
    expect(last.accept).toBe('text/html');
  });

  test('a 404 is returned, not thrown', async () => {
    expect((await fetcher()(`${base}/nothing`)).status).toBe(404);
  });

  test('a redirect chain within the cap is followed and listed', async () => {
    const response = await fetcher({ maxRedirects: 3 })(`${base}/r/3`);
    expect(response.status).toBe(200);
    expect(text(response.body)).toBe('end of chain');
    expect(response.redirects).toEqual([`${base}/r/2`, `${base}/r/1`, `${base}/r/0`]);
    expect(response.url).toBe(`${base}/r/0`);
  });

  test('a chain over the cap is refused', async () => {
    expect(await refusal(fetcher({ maxRedirects: 3 })(`${base}/r/4`))).toBe('redirects');
    expect(await refusal(fetcher()(`${base}/r/6`))).toBe('redirects'); // default cap 5
    expect(text((await fetcher()(`${base}/r/5`)).body)).toBe('end of chain');
  });

  test('a redirect to a private address is refused before connecting', async () => {
    let resolved = 0;
    const safeFetch = fetcher({
      resolve: async () => {
        resolved += 1;
        return ['127.0.0.1'];
      },
    });
    expect(await refusal(safeFetch(`${base}/to-private`))).toBe('address');
    expect(resolved).toBe(0); // a literal hop is checked as-is, never resolved or contacted
  });

  test('a redirect to the metadata address is refused', async () => {
    expect(await refusal(fetcher()(`${base}/to-metadata`))).toBe('address');
  });

  test('a redirect to another scheme is refused', async () => {
    expect(await refusal(fetcher()(`${base}/to-file`))).toBe('scheme');
  });

  test('a relative redirect keeps the host name', async () => {
    const safeFetch = fetcher({ resolve: async () => ['127.0.0.1'] });
    const response = await safeFetch(`http://site.test:${server.port}/to-page`);
    expect(response.url).toBe(`http://site.test:${server.port}/page`);
    expect(response.redirects).toEqual([`http://site.test:${server.port}/page`]);
    expect(seen.at(-1)).toMatchObject({ path: '/page', host: `site.test:${server.port}` });
  });

  test('a name resolving to a private address is refused', async () => {
    const before = hits('/page');
    const safeFetch = fetcher({ resolve: async () => ['10.0.0.1'] });
    expect(await refusal(safeFetch(`http://internal.test:${server.port}/page`))).toBe('address');
    expect(hits('/page')).toBe(before);
  });

  test('a name with any bad address among good ones is refused', async () => {
    const before = hits('/page');
    const safeFetch = fetcher({ resolve: async () => ['127.0.0.1', '10.0.0.1'] });
    expect(await refusal(safeFetch(`http://mixed.test:${server.port}/page`))).toBe('address');
    const mapped = fetcher({ resolve: async () => ['127.0.0.1', '::ffff:169.254.169.254'] });
    expect(await refusal(mapped(`http://mixed.test:${server.port}/page`))).toBe('address');
    expect(hits('/page')).toBe(before);
  });

  test('a name resolving to loopback connects to the checked address with its Host header', async () => {
    const asked: string[] = [];
    const safeFetch = fetcher({
      resolve: async (host) => {
        asked.push(host);
        return ['127.0.0.1'];
      },
    });
    const response = await safeFetch(`http://shop.example.test:${server.port}/host`);
    expect(text(response.body)).toBe(`host=shop.example.test:${server.port}`);
    expect(seen.at(-1)!.host).toBe(`shop.example.test:${server.port}`);
    expect(response.url).toBe(`http://shop.example.test:${server.port}/host`);
    expect(asked).toEqual(['shop.example.test']);
  });

  test('unresolvable names', async () => {
    expect(await refusal(fetcher({ resolve: async () => [] })('http://empty.test/'))).toBe('unresolvable');
    expect(
      await refusal(
        fetcher({
          resolve: async () => {
            throw new Error('ENOTFOUND');
          },
        })('http://gone.test/'),
      ),
    ).toBe('unresolvable');
  });

  test('a body over maxBytes is refused (declared and streamed)', async () => {
    expect(await refusal(fetcher({ maxBytes: 1000 })(`${base}/big-declared`))).toBe('too_large');
    expect(await refusal(fetcher({ maxBytes: 10_000 })(`${base}/big-streamed`))).toBe('too_large');
    expect((await fetcher({ maxBytes: 4096 })(`${base}/big-declared`)).body.byteLength).toBe(4096);
  });

  test('a server that never answers times out', async () => {
    const started = performance.now();
    expect(await refusal(fetcher({ timeoutMs: 300 })(`${base}/hang`))).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2500);
  });

  test('a body that never ends times out', async () => {
    expect(await refusal(fetcher({ timeoutMs: 300 })(`${base}/slow-body`))).toBe('timeout');
  });

  test('a resolver that never answers times out', async () => {
    const safeFetch = fetcher({ timeoutMs: 200, resolve: () => new Promise<string[]>(() => {}) });
    expect(await refusal(safeFetch('http://slow-dns.test/'))).toBe('timeout');
  });

  test('credentials and schemes are refused up front', async () => {
    expect(await refusal(fetcher()(`http://user:pw@127.0.0.1:${server.port}/page`))).toBe('credentials');
    expect(await refusal(fetcher()('file:///etc/passwd'))).toBe('scheme');
  });
});

describe('safeFetch without allowLoopback', () => {
  test('loopback literals and names are refused without contact', async () => {
    const before = seen.length;
    const safeFetch = createSafeFetcher({ userAgent: 'ListingBot/1.0', resolve: async () => ['127.0.0.1'] });
    expect(await refusal(safeFetch(`http://127.0.0.1:${server.port}/page`))).toBe('address');
    expect(await refusal(safeFetch(`http://2130706433:${server.port}/page`))).toBe('address');
    expect(await refusal(safeFetch(`http://localhost.test:${server.port}/page`))).toBe('address');
    expect(seen.length).toBe(before);
  });
});

// https: connect to the checked IP while SNI and the certificate check use the host name.
// openssl (Debian's, on every machine of this kind) makes a throwaway certificate at test time.
const openssl = Bun.which('openssl');
if (openssl === null) throw new Error('the https tests need openssl on PATH');
describe('safeFetch over https', () => {
  let dir = '';
  let tlsServer: ReturnType<typeof Bun.serve>;
  let cert = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ssrf-tls-'));
    const made = Bun.spawnSync([
      openssl!,
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=site.test',
      '-addext',
      'subjectAltName=DNS:site.test',
    ]);
    if (made.exitCode !== 0) throw new Error(made.stderr.toString());
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    tlsServer = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      tls: { cert, key: Bun.file(join(dir, 'key.pem')) },
      fetch: (request) => new Response(`host=${request.headers.get('host')}`),
    });
  });

  afterAll(() => {
    tlsServer?.stop(true);
    rmSync(dir, { recursive: true, force: true });
  });

  test('verifies the certificate against the name, not the IP', async () => {
    const safeFetch = fetcher({ ca: cert, resolve: async () => ['127.0.0.1'] });
    const response = await safeFetch(`https://site.test:${tlsServer.port}/`);
    expect(text(response.body)).toBe(`host=site.test:${tlsServer.port}`);
    await expect(safeFetch(`https://other.test:${tlsServer.port}/`)).rejects.toThrow(/ALTNAME|hostname|certificate/i);
  });

  test('an untrusted certificate is rejected', async () => {
    const safeFetch = fetcher({ resolve: async () => ['127.0.0.1'] });
    await expect(safeFetch(`https://site.test:${tlsServer.port}/`)).rejects.toThrow();
  });
});

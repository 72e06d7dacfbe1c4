// A product homepage on loopback whose content a test changes at will: badge present, absent,
// hidden, removed later; plus files at well-known paths, a slow answer, a huge one, and a
// redirect to a private address, for the badge check and claim verification.
export interface OwnerSite {
  url: string;
  host: string;
  port: number;
  hits: string[];
  /** The homepage body (HTML). */
  home: string;
  /** Extra paths and their bodies (text/plain unless they start with "<"). */
  files: Map<string, string>;
  /** Paths that answer 302 to another URL (on this host or another). */
  redirects: Map<string, string>;
  /** How the homepage misbehaves, if at all. */
  mode: 'ok' | 'slow' | 'huge' | 'private_redirect' | 'error';
  stop(): void;
}

export const page = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Product</title>${head}</head><body>${body}</body></html>`;

/** hostname: another loopback address (127.0.0.2, ...) is another host on the same machine. */
export function startOwnerSite(hostname = '127.0.0.1'): OwnerSite {
  const site = { hits: [] as string[], home: page('<h1>Our product</h1>'), files: new Map<string, string>(), redirects: new Map(), mode: 'ok' } as OwnerSite;
  // A slow homepage answers only when the site stops: long after any fetcher's time cap.
  const stopped = Promise.withResolvers<void>();
  const server = Bun.serve({
    hostname,
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      site.hits.push(path);
      const to = site.redirects.get(path);
      if (to !== undefined) return Response.redirect(to, 302);
      if (path === '/') {
        if (site.mode === 'slow') {
          await stopped.promise;
          return new Response('late');
        }
        if (site.mode === 'huge')
          return new Response('<html><body>' + 'x'.repeat(6 * 1024 * 1024) + '</body></html>', { headers: { 'content-type': 'text/html' } });
        if (site.mode === 'private_redirect') return Response.redirect('http://10.0.0.1/', 302);
        if (site.mode === 'error') return new Response('down', { status: 503 });
        return new Response(site.home, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      }
      const body = site.files.get(path);
      if (body === undefined) return new Response('not found', { status: 404 });
      return new Response(body, { headers: { 'content-type': body.startsWith('<') ? 'text/html' : 'text/plain' } });
    },
  });
  site.port = server.port!;
  site.host = hostname;
  site.url = `http://${hostname}:${server.port}/`;
  site.stop = () => {
    stopped.resolve();
    server.stop(true);
  };
  return site;
}

/**
 * The wire's floor for an answer of the edge's own shape: a bare Bun server that answers every
 * request with one response the edge gave (REPLAY_FROM, fetched once the edge has cached it),
 * status, headers and body byte for byte, with no routing, no bookkeeping and no database.
 * The distance between this and the hello-world ceiling is what the answer's size and its headers
 * (security, CORS, caching, rate limits, request id) cost the runtime and the load generator.
 */
export {}; // a module: top-level await

const from = process.env.REPLAY_FROM;
if (!from) throw new Error('REPLAY_FROM is the URL whose answer to replay');
await (await fetch(from)).arrayBuffer();
const res = await fetch(from, { decompress: false } as RequestInit);
const body = new Uint8Array(await res.arrayBuffer());
const headers = new Headers(res.headers);
for (const h of ['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']) headers.delete(h);
const init = { status: res.status, headers: Object.fromEntries(headers) };
const server = Bun.serve({ port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1', fetch: () => new Response(body, init) });
console.log(`READY ${server.port} (${res.status}, ${body.byteLength} bytes, ${[...headers.keys()].length} headers)`);
process.on('SIGTERM', () => {
  server.stop(true);
  process.exit(0);
});

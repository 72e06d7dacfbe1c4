// The runtime's ceiling: a bare Bun server answering a small JSON body, no routing, no database.
const port = Number(process.env.PORT ?? 0);
const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: () => new Response('{"hello":"world"}', { headers: { 'content-type': 'application/json' } }) });
console.log(`READY ${server.port}`);
process.on('SIGTERM', () => {
  server.stop(true);
  process.exit(0);
});

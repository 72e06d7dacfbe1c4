// A DNS server on loopback (dns2) answering TXT queries from a map the test changes, for DNS claims.
import dns2 from 'dns2';

export interface TestDns {
  server: string;
  /** TXT records by name; a record given as an array is published as several strings. */
  txt: Map<string, (string | string[])[]>;
  queries: string[];
  /** When set, queries get no answer at all (a DNS server that is down). */
  silent: boolean;
  stop(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDns> {
  const { Packet } = dns2;
  const txt = new Map<string, (string | string[])[]>();
  const queries: string[] = [];
  const state = { silent: false };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      if (state.silent) return;
      const response = Packet.createResponseFromRequest(request);
      for (const q of request.questions) {
        queries.push(q.name);
        for (const data of txt.get(q.name.toLowerCase()) ?? []) {
          response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as never);
        }
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } } as never);
  const port = (server.addresses() as unknown as { udp: { port: number } }).udp.port;
  return Object.assign(state, { server: `127.0.0.1:${port}`, txt, queries, stop: () => server.close() as unknown as Promise<void> });
}

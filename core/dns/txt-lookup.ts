// TXT lookups for DNS claims, through node:dns's Resolver: the system's resolvers, or the one
// configured (CLAIM_DNS_SERVER, e.g. 127.0.0.1:5353 in tests).
import { Resolver } from 'node:dns/promises';

export type TxtLookup = (name: string) => Promise<string[]>;

export class DnsLookupError extends Error {
  constructor(
    readonly reason: 'dns_record_not_found' | 'dns_unavailable',
    message: string,
  ) {
    super(message);
  }
}

export function createTxtLookup(opts: { server: string | null; timeoutMs?: number }): TxtLookup {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: 2 });
  if (opts.server) resolver.setServers([opts.server]);
  return async (name) => {
    try {
      // A long TXT value arrives as several strings; joined, they are the value.
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'NOTFOUND' || code === 'NODATA') {
        throw new DnsLookupError('dns_record_not_found', `no TXT record at ${name}`);
      }
      throw new DnsLookupError('dns_unavailable', `looking up ${name} failed (${code || (error as Error).message})`);
    }
  };
}

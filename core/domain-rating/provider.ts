// The Domain Rating provider: Ahrefs' API v3 (GET site-explorer/domain-rating?target=&date=, bearer
// key, answer {"domain_rating": {"domain_rating": 45.0, ...}}) or any service speaking that JSON.
// The URL is the operator's configuration, not user input, so it is called directly (with a time
// and size cap) rather than through the SSRF-safe fetcher, like the Stripe and OpenAI clients.

export interface DomainRatingProvider {
  /** The rating 0-100 of a domain on a day; null when the provider knows nothing of the domain. */
  rating(domain: string, day: string): Promise<number | null>;
}

export class ProviderError extends Error {}

const MAX_BYTES = 64_000;

export function httpDomainRatingProvider(opts: { url: string; key: string; timeoutMs?: number }): DomainRatingProvider {
  return {
    async rating(domain, day) {
      const url = new URL(opts.url);
      url.searchParams.set('target', domain);
      url.searchParams.set('date', day);
      url.searchParams.set('protocol', 'both');
      url.searchParams.set('output', 'json');
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${opts.key}`, accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
        redirect: 'error',
      });
      const text = await res.text();
      if (text.length > MAX_BYTES) throw new ProviderError(`the provider's answer for ${domain} is over ${MAX_BYTES} bytes`);
      if (res.status === 404) return null;
      if (!res.ok) throw new ProviderError(`the provider answered ${res.status} for ${domain}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProviderError(`the provider's answer for ${domain} is not JSON`);
      }
      const dr = (body as { domain_rating?: { domain_rating?: unknown } | null })?.domain_rating;
      if (dr === null || dr === undefined) return null;
      const value = dr.domain_rating;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100)
        throw new ProviderError(`the provider's rating for ${domain} is not a number from 0 to 100`);
      return Math.round(value);
    },
  };
}

// Optional online check of EU VAT numbers against VIES (the EU's VAT Information Exchange System),
// on top of the offline checksum. Off by default (VIES_CHECK); when VIES is slow, down or answers
// something unexpected, the checksum result stands and the VAT note says VIES was not reachable.
import { createSafeFetcher, type SafeFetch } from '../net/ssrf-fetch.ts';

/** true: registered; false: VIES says not registered; null: VIES could not answer. */
export type ViesCheck = (countryPrefix: string, number: string) => Promise<boolean | null>;

export const VIES_DEFAULT_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

/** GET {base}/ms/{prefix}/vat/{number} → {isValid}; through the SSRF-safe fetcher, 5 s and 64 KB caps. */
export function createViesCheck(opts: { baseUrl: string; userAgent: string; allowLoopback: boolean; fetcher?: SafeFetch }): ViesCheck {
  const fetcher =
    opts.fetcher ?? createSafeFetcher({ userAgent: opts.userAgent, allowLoopback: opts.allowLoopback, timeoutMs: 5000, maxBytes: 65_536, maxRedirects: 2 });
  return async (prefix, number) => {
    try {
      const res = await fetcher(`${opts.baseUrl.replace(/\/+$/, '')}/ms/${encodeURIComponent(prefix)}/vat/${encodeURIComponent(number)}`, {
        accept: 'application/json',
      });
      if (res.status !== 200) return null;
      const body = JSON.parse(new TextDecoder().decode(res.body)) as { isValid?: unknown; userError?: unknown };
      if (typeof body.isValid !== 'boolean') return null;
      // VIES answers isValid=false with a userError such as MS_UNAVAILABLE when a member state's system is down.
      if (!body.isValid && typeof body.userError === 'string' && !['VALID', 'INVALID'].includes(body.userError)) return null;
      return body.isValid;
    } catch {
      return null;
    }
  };
}

const made = new Map<string, ViesCheck>();
/** The configured check (one per setting), or undefined when VIES_CHECK is off. */
export function viesFromConfig(c: { orders: { vies: { url: string } | null }; crawlerUserAgent: string; allowLoopbackFetch: boolean }): ViesCheck | undefined {
  if (!c.orders.vies) return undefined;
  const key = `${c.orders.vies.url}|${c.allowLoopbackFetch}`;
  let v = made.get(key);
  if (!v) made.set(key, (v = createViesCheck({ baseUrl: c.orders.vies.url, userAgent: c.crawlerUserAgent, allowLoopback: c.allowLoopbackFetch })));
  return v;
}

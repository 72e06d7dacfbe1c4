// Address policy for server-side fetches: which URLs and IP addresses we may connect to.
// Pure checks, no network; ssrf-fetch.ts does the resolving and connecting.
import ipaddr from 'ipaddr.js';

export type UnsafeReason = 'scheme' | 'address' | 'redirects' | 'too_large' | 'timeout' | 'unresolvable' | 'credentials';

/** Thrown for every refused fetch; `reason` is stable so callers can tell the owner why. */
export class UnsafeUrlError extends Error {
  override readonly name = 'UnsafeUrlError';
  constructor(
    readonly reason: UnsafeReason,
    message: string,
  ) {
    super(message);
  }
}

export interface AddressPolicy {
  /** Also allow 127.0.0.0/8 and ::1 (tests crawl local servers). Nothing else extra. */
  allowLoopback?: boolean;
}

// IPv4-compatible ::a.b.c.d (deprecated, RFC 4291) reports 'unicast' in ipaddr.js but embeds
// an IPv4 address; nothing public lives there, so refuse the whole ::/96.
const ipv4Compatible = ipaddr.parseCIDR('::/96');

/**
 * The range name ipaddr.js gives an address, after turning IPv4-mapped IPv6 into IPv4.
 * Throws 'address' for text that is not an IP address at all.
 */
export function rangeOf(address: string): { ip: ipaddr.IPv4 | ipaddr.IPv6; range: string } {
  const text = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) throw new UnsafeUrlError('address', `not an IP address: ${address}`);
  const ip = ipaddr.process(text);
  const range = ip.range();
  // Only re-label what ipaddr calls unicast, so :: and ::1 keep their own names.
  if (range === 'unicast' && ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).match(ipv4Compatible as [ipaddr.IPv6, number])) {
    return { ip, range: 'ipv4Compatible' };
  }
  return { ip, range };
}

/**
 * Checks one address; returns it normalised (mapped IPv6 becomes dotted IPv4), ready to
 * connect to. Only 'unicast' passes (plus 'loopback' when allowed).
 */
export function checkAddress(address: string, policy: AddressPolicy = {}): string {
  const { ip, range } = rangeOf(address);
  const ok = range === 'unicast' || (policy.allowLoopback === true && range === 'loopback');
  if (!ok) throw new UnsafeUrlError('address', `address ${ip.toString()} is ${range}, not a public unicast address`);
  return ip.toString();
}

/** A URL that passed the shape checks; `literal` is set when the host is an IP address. */
export interface CheckedUrl {
  url: URL;
  /** Hostname without IPv6 brackets; what DNS would be asked for. */
  host: string;
  /** The checked, normalised IP when the URL names an IP literal directly. */
  literal: string | null;
}

/**
 * Parses with the WHATWG URL parser (which already folds decimal, hex, octal and short IPv4
 * forms into dotted IPv4), refuses non-http(s) schemes and userinfo, and checks IP literals.
 */
export function checkUrl(raw: string | URL, policy: AddressPolicy = {}): CheckedUrl {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new UnsafeUrlError('scheme', `not a valid URL: ${String(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeUrlError('scheme', `only http and https URLs are fetched, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UnsafeUrlError('credentials', 'URLs with a user name or password are not fetched');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new UnsafeUrlError('unresolvable', 'URL has no host');
  const literal = ipaddr.isValid(host) ? checkAddress(host, policy) : null;
  return { url, host, literal };
}

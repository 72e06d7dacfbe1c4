import Bowser from 'bowser';
import ipaddr from 'ipaddr.js';

/** What a vote keeps to be judged later: never the address itself (record_vote hashes the network with a secret key). */
export interface VoteSignals {
  /** The /24 (IPv4) or /48 (IPv6) network of the voter, as text for the keyed hash; null when unknown. */
  network: string | null;
  /** The browser family, lower case: chrome, firefox, safari, ..., bot, other or none. */
  uaFamily: string;
  /** How the account signed in for this session. */
  signIn: string;
  /** The visitor string record_listing_view hashed when the page was viewed, to tell whether the voter had visited. */
  visitor: string;
}

/** The network prefix an address belongs to: /24 for IPv4 (and IPv4-mapped IPv6), /48 for IPv6. */
export function networkOf(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const bits = ip.kind() === 'ipv4' ? 24 : 48;
  const bytes = ip.toByteArray();
  const keep = bits / 8;
  const masked = bytes.map((b, i) => (i < keep ? b : 0));
  return `${ipaddr.fromByteArray(masked).toString()}/${bits}`;
}

/** The browser family of a User-Agent header, as a short lower-case word. */
export function uaFamilyOf(userAgent: string | null): string {
  if (!userAgent?.trim()) return 'none';
  const parser = Bowser.getParser(userAgent);
  if (parser.getPlatformType(true) === 'bot' || /bot|crawl|spider|curl|wget|python|headless/i.test(userAgent)) return 'bot';
  const name = parser
    .getBrowserName(true)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return name ? name.slice(0, 40) : 'other';
}

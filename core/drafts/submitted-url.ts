// The website a draft is made from (submit_listing) or compared with (competitor_url): checked
// early so an obviously non-public URL is a 400 at once. The crawler's SSRF-safe fetcher checks
// every resolved address again; this is only the early, cheap part of that rule.
import { checkUrl, UnsafeUrlError } from '../net/address-policy.ts';
import { invalid, type ErrorCode } from '../errors/index.ts';

export const URL_MAX = 2048;

// Names that never reach a public website (RFC 6761, RFC 6762, RFC 8375 and common private suffixes).
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;

// The URL parser has already lower-cased the host and turned IDNs into punycode (xn--...), so a
// DNS name here is LDH labels of 1-63 characters; the last label (the TLD) is not all digits.
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const isDomainName = (host: string) => {
  const labels = host.split('.');
  return host.length <= 253 && labels.length >= 2 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
};

/** The normalised URL (scheme and host lower case, no fragment) and the site's domain (no leading www.). */
export function normaliseSubmittedUrl(raw: string, field: string, opts: { allowLoopback: boolean }): { url: string; domain: string } {
  const fail = (message: string, code: ErrorCode = 'url_not_public') => invalid(`Invalid input: ${field} ${message}`, [{ field, message }], code);
  let text = raw.trim();
  // A bare domain ("acme.com/pricing") means its https site.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) text = `https://${text}`;
  let checked: ReturnType<typeof checkUrl>;
  try {
    checked = checkUrl(text, { allowLoopback: opts.allowLoopback });
  } catch (error) {
    if (error instanceof UnsafeUrlError) {
      const why =
        error.reason === 'address' ? 'must be a public website (the address is not public)' : `must be a public http or https website (${error.message})`;
      throw fail(why);
    }
    throw error;
  }
  const { url, host, literal } = checked;
  if (literal === null) {
    if (!host.includes('.') && !(opts.allowLoopback && host === 'localhost')) throw fail('must be a public website (a full domain name)');
    if (host !== 'localhost' && !isDomainName(host.replace(/\.$/, ''))) throw fail('must be a public website (the host is not a valid domain name)');
    if (PRIVATE_NAMES.test(host.replace(/\.$/, '')) && !(opts.allowLoopback && host === 'localhost'))
      throw fail('must be a public website, not a private name');
  }
  url.hash = '';
  if (url.href.length > URL_MAX) throw fail(`must be at most ${URL_MAX} characters`, 'invalid_input');
  return {
    url: url.href,
    domain: host
      .replace(/\.$/, '')
      .replace(/^www\./, '')
      .toLowerCase(),
  };
}

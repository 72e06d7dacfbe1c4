// What a URL or e-mail field accepts, in one place: the edge's schemas (update_draft,
// update_my_listing, invite_cofounder) and the page forms all take their rules from here.
//
// Rules (also in docs/behaviour.md, "Input rules and hardening"):
// - every URL field takes an absolute http(s) URL only (no javascript:, data:, relative or bare text),
//   with no user name or password in it;
// - a social link must be on its platform's host or a subdomain of it (linkedin.com for linkedin,
//   x.com or twitter.com for x, ...); `website` and `custom` take any http(s) URL;
// - demo_video_url must be on a video host (YouTube, Vimeo, Loom, Wistia);
// - milestone links are https only;
// - an e-mail field takes an address of the form a browser's <input type=email> accepts.

/** The hosts each social platform's link must be on (the host itself or a subdomain). null: any host. */
export const SOCIAL_HOSTS: Record<string, readonly string[] | null> = {
  linkedin: ['linkedin.com', 'lnkd.in'],
  x: ['x.com', 'twitter.com'],
  facebook: ['facebook.com', 'fb.com', 'fb.me'],
  instagram: ['instagram.com', 'instagr.am'],
  tiktok: ['tiktok.com'],
  youtube: ['youtube.com', 'youtu.be'],
  threads: ['threads.net', 'threads.com'],
  pinterest: ['pinterest.com', 'pin.it'],
  github: ['github.com'],
  reddit: ['reddit.com', 'redd.it'],
  producthunt: ['producthunt.com'],
  medium: ['medium.com'],
  website: null,
  custom: null,
};

/** Where a demo video may be hosted. */
export const VIDEO_HOSTS = ['youtube.com', 'youtu.be', 'vimeo.com', 'loom.com', 'wistia.com', 'wistia.net', 'fast.wistia.net'] as const;

export interface UrlRule {
  /** Hosts allowed (the host or any subdomain of it); absent: any host. */
  hosts?: readonly string[] | null;
  /** https only. */
  httpsOnly?: boolean;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The rule as a JSON Schema `pattern` (ECMA 262), so that clients see it in the OpenAPI document
 * and both validators (REST, MCP) apply the same thing. The host part is made of letters, digits,
 * dots and hyphens only and must be followed by a port, path, query, fragment or the end: a user
 * name ("https://x.com@evil.example") cannot pass.
 */
export function urlPattern(rule: UrlRule = {}, opts: { blank?: boolean } = {}): string {
  const scheme = rule.httpsOnly ? '[Hh][Tt][Tt][Pp][Ss]' : '[Hh][Tt][Tt][Pp][Ss]?';
  const host = rule.hosts?.length
    ? `([A-Za-z0-9-]+\\.)*(${rule.hosts.map(escapeRe).join('|')})`
    : '[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*';
  const url = `${scheme}://${host}\\.?(:[0-9]{1,5})?([/?#][^\\s]*)?`;
  return opts.blank ? `^(\\s*|${url})$` : `^${url}$`;
}

/** The same check in code, for forms and anything not validated by a schema. */
export function isAllowedUrl(value: string, rule: UrlRule = {}): boolean {
  if (!new RegExp(urlPattern(rule), 'i').test(value)) return false;
  try {
    const u = new URL(value);
    if (u.username || u.password) return false;
    if (rule.httpsOnly ? u.protocol !== 'https:' : u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    if (!rule.hosts?.length) return true;
    const host = u.hostname.toLowerCase().replace(/\.$/, '');
    return rule.hosts.some((h) => host === h || host.endsWith(`.${h}`));
  } catch {
    return false;
  }
}

export const socialRule = (platform: string): UrlRule => ({ hosts: SOCIAL_HOSTS[platform] ?? null });
/** A sentence for the OpenAPI document: what a platform's link must be. */
export const socialDescription = (platform: string): string => {
  const hosts = SOCIAL_HOSTS[platform];
  return hosts ? `An absolute http(s) URL on ${hosts.join(' or ')} (or a subdomain).` : 'An absolute http(s) URL.';
};
export const VIDEO_RULE: UrlRule = { hosts: VIDEO_HOSTS };
export const HTTPS_RULE: UrlRule = { httpsOnly: true };

/** The WHATWG form a browser's <input type=email> accepts: practical, not RFC 5322 in full. */
export const EMAIL_PATTERN = "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$";
export const isEmail = (v: string): boolean => v.length <= 254 && new RegExp(EMAIL_PATTERN).test(v);
/** An e-mail pattern that also lets a blank value through (where blank clears the field). */
export const emailPattern = (opts: { blank?: boolean } = {}) => (opts.blank ? `^(\\s*|${EMAIL_PATTERN.slice(1, -1)})$` : EMAIL_PATTERN);

/** Where to go when no (acceptable) return_to was given. */
export const DEFAULT_RETURN_TO = '/account';

/**
 * A return_to that is a path on this site, or /account. Only a single leading '/' is allowed:
 * '//host' is another origin, browsers read '\' as '/' ('/\host'), and URL parsers drop tabs and
 * newlines ('/\t/host'), so those are refused before the URL parser gets a say; the parsed result
 * must still be on our origin.
 */
export function safeReturnTo(raw: unknown, siteUrl: string): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return DEFAULT_RETURN_TO;
  if (raw[0] !== '/' || raw[1] === '/' || raw.includes('\\') || /[\u0000-\u0020\u007f]/.test(raw)) return DEFAULT_RETURN_TO;
  let url: URL;
  try {
    url = new URL(raw, siteUrl);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  const site = new URL(siteUrl);
  if (url.origin !== site.origin) return DEFAULT_RETURN_TO;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith('//') ? DEFAULT_RETURN_TO : path;
}

// Plain text helpers of the public pages: numbers, counts, dates and the one check that decides
// whether a URL from the database may become a link.

const numbers = new Intl.NumberFormat('en-US');
export const n = (x: number) => numbers.format(x);
/** "1 vote", "12 votes" */
export const count = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;
export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');
export const money = (cents: number, currency = 'USD') => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

/** Only http(s) links are rendered as links: a javascript: or data: URL stays text. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** JSON for a <script type="application/ld+json"> block: '<' is escaped so no text can close the element. */
export const jsonLdText = (o: object) => JSON.stringify(o).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

// Whose words a block of a page is: the site's own, or someone else's quoted on it
// (testimonials, reviews, case studies, press quotes, partner and investor mentions). A person
// or fact stated in someone else's words is about their company, never this product's.
import type { AnyNode, Element } from 'cheerio';

const THIRD_PARTY_TAGS = new Set(['blockquote', 'q', 'cite']);
const THIRD_PARTY_NAME =
  /testimonial|review|(^|[-_\s])quotes?($|[-_\s])|customer|client|case-?stud|success-?stor|press|in-the-news|media-mention|partner|investor|backer|endorse|trusted|social-proof|kudos|wall-of-love|love-wall|logo-?(list|wall|grid|strip|cloud)/i;
export const THIRD_PARTY_HEADING =
  /what (?:our |people |users |teams |customers |clients )?(?:customers|clients|users|people|teams|they) (?:say|think)|testimonials?|\breviews?\b|case stud|customer stor|success stor|\bpress\b|in the news|as seen (?:in|on)|featured in|\bpartners?\b|\binvestors?\b|backed by|trusted by|loved by|our (?:customers|clients)/i;
// Pages about other companies: case studies, customer stories, press, partner and investor pages.
const THIRD_PARTY_PATH =
  /\/(?:customers?|clients?|case-?stud(?:y|ies)|stories|success-stories|testimonials?|reviews?|press|media|news|partners?|investors?|showcase)(?:\/|$)/i;

/** A page whose subject is other companies (by its path). */
export function thirdPartyPage(url: string): boolean {
  try {
    return THIRD_PARTY_PATH.test(new URL(url).pathname.toLowerCase().replace(/\.html?$/, ''));
  } catch {
    return false;
  }
}

function ownName(el: Element): string {
  return `${el.attribs?.class ?? ''} ${el.attribs?.id ?? ''} ${el.attribs?.['data-hook'] ?? ''} ${el.attribs?.['data-testid'] ?? ''}`;
}

const headingText = (el: Element): string => {
  const parts: string[] = [];
  const walk = (n: AnyNode) => {
    if (n.type === 'text') parts.push((n as unknown as { data: string }).data);
    else if (n.type === 'tag') for (const c of (n as Element).children) walk(c);
  };
  walk(el);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
};

/** Whether the element is a block in someone else's words: a quotation, or marked (class, id,
 * or the heading it starts with) as testimonials, reviews, case studies, press or partners. */
export function isThirdPartyBlock(el: Element): boolean {
  const name = el.name.toLowerCase();
  if (THIRD_PARTY_TAGS.has(name)) return true;
  if (name === 'figure' && el.children.some((c) => c.type === 'tag' && ['blockquote', 'q'].includes((c as Element).name))) return true;
  // By its class or id, unless it holds the page's own main content: a wrapper named for the
  // theme or the app ("wordpress", "client-app") is the whole page, not a quote on it.
  if (THIRD_PARTY_NAME.test(ownName(el)) && !holdsPageContent(el)) return true;
  if (['section', 'aside', 'div', 'article'].includes(name)) {
    // A section that opens with a heading naming testimonials, press, partners...
    const first = el.children.find((c) => c.type === 'tag') as Element | undefined;
    const heading =
      first !== undefined && /^h[1-6]$/.test(first.name)
        ? first
        : first !== undefined
          ? (first.children.find((c) => c.type === 'tag' && /^h[1-6]$/.test((c as Element).name)) as Element | undefined)
          : undefined;
    if (heading !== undefined) {
      const text = headingText(heading);
      if (text.length <= 80 && THIRD_PARTY_HEADING.test(text)) return true;
    }
  }
  return false;
}

/** Whether the element is the page, or holds its main content (a main element or the h1).
 * Remembered per element: every node under a wrapper asks it of the same wrapper. */
const holdsContent = new WeakMap<Element, boolean>();
export function holdsPageContent(el: Element): boolean {
  let held = holdsContent.get(el);
  if (held === undefined) {
    const name = el.name.toLowerCase();
    held = ['body', 'html', 'main', 'h1'].includes(name) || el.children.some((c) => c.type === 'tag' && holdsPageContent(c as Element));
    holdsContent.set(el, held);
  }
  return held;
}

/** Whether the node sits inside a block in someone else's words. */
export function inThirdPartyBlock(node: AnyNode): boolean {
  for (let n: AnyNode | null = node; n !== null && n.type === 'tag'; n = n.parent) {
    if (isThirdPartyBlock(n as Element)) return true;
  }
  return false;
}

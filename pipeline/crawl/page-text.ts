// Title and visible text of an HTML page. Anything a visitor does not see (scripts, styles,
// comments, hidden elements) is dropped: hidden text is a classic prompt-injection carrier.
import * as cheerio from 'cheerio';

type Loaded = ReturnType<typeof cheerio.load>;

const INVISIBLE = 'script, style, noscript, template, iframe, object, svg, head, [hidden], [aria-hidden="true" i]';
export const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*(;|$)/i;
/** Elements that break visible text into lines; the drafters' quote finder splits the same way. */
export const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'table', 'td', 'th', 'tr', 'ul',
]);

export function loadHtml(html: string): Loaded {
  return cheerio.load(html);
}

export function pageTitle($: Loaded): string | null {
  const title = $('title').first().text().replace(/\s+/g, ' ').trim();
  return title === '' ? null : title;
}

/** Visible text, one line per block element, whitespace collapsed inside lines. Removes the
 * invisible parts from `$` (head included): read pageTitle first. */
export function visibleText($: Loaded): string {
  $(INVISIBLE).remove();
  $('[style]').each((_, element) => {
    if (HIDDEN_STYLE.test($(element).attr('style') ?? '')) $(element).remove();
  });
  const root = $('body').length > 0 ? $('body') : $.root();
  const parts: string[] = [];
  const walk = (nodes: ReturnType<Loaded>) => {
    nodes.contents().each((_, node) => {
      if (node.type === 'text') parts.push((node as unknown as { data: string }).data);
      else if (node.type === 'tag') {
        const name = (node as unknown as { name: string }).name.toLowerCase();
        const block = BLOCK.has(name);
        if (block) parts.push('\n');
        walk($(node));
        if (block) parts.push('\n');
      }
      // comments, CDATA and directives are skipped
    });
  };
  walk(root);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

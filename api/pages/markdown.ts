import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const marked = new Marked({ gfm: true, async: false });

/**
 * Markdown (blog posts) to HTML with marked, then sanitised with sanitize-html: only prose tags,
 * http(s)/mailto and site-relative links, no attributes that run code, so a post can never carry
 * a script, an event handler or a javascript: URL onto the page. The result is the one HTML a
 * page inserts as is (dangerouslySetInnerHTML).
 */
export function renderMarkdown(md: string | null | undefined, opts: { dropFirstHeading?: string } = {}): string {
  let text = md ?? '';
  // The page shows the title as its h1; a post that opens with the same heading would repeat it.
  if (opts.dropFirstHeading !== undefined) text = text.replace(/^\s*#\s+[^\n]*\n/, '');
  const raw = marked.parse(text) as string;
  const clean = sanitizeHtml(raw, {
    allowedTags: [
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'p',
      'a',
      'ul',
      'ol',
      'li',
      'strong',
      'em',
      'code',
      'pre',
      'blockquote',
      'hr',
      'br',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'del',
      'img',
    ],
    // rel must be allowed, or sanitize-html drops the rel the transform below sets.
    allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], th: ['align'], td: ['align'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    // Ours replaces any rel the text carried: no link passes on ranking or a window.opener.
    transformTags: { h1: 'h2', a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow ugc noopener' }) },
  });
  return clean;
}

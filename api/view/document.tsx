// Pages are Preact elements rendered to a string on the server: Preact escapes every text child
// and attribute value, so no page builds HTML by concatenation. Markup that is trusted on
// purpose (sanitised Markdown, JSON-LD, the stylesheet) goes in through dangerouslySetInnerHTML,
// which keeps each such place explicit and easy to find.

import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** An element tree as a whole HTML document. */
export const renderDocument = (tree: VNode): string => `<!doctype html>${renderToString(tree)}`;

/** An element tree as an HTML fragment (for a form's no-reload answer, a mail body). */
export const renderFragment = (tree: VNode): string => renderToString(tree);

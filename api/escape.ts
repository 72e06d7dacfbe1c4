// The one escaper for everything the edge writes as markup: HTML pages, the sign-in mail, the
// API docs page, badge embed snippets and SVG badges.
//
// Why not the `entities` package: its escapers keep the control characters XML 1.0 forbids
// outright, and one of those in an SVG badge makes the whole image fail to parse. Why one
// function for text and attributes alike: escaping all five of & < > " ' is safe in element
// text, in single- and double-quoted attribute values, in HTML and in XML. The apostrophe becomes
// &#39; (a numeric reference), which HTML 4, HTML5 and XML all read; &apos; is not HTML 4.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes a value (null and undefined as '') for element text or a quoted attribute, in HTML or XML; drops characters XML 1.0 does not allow. */
export const escapeMarkup = (value: unknown): string =>
  String(value ?? '')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ESCAPES[c]);

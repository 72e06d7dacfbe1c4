import { describe, expect, test } from 'bun:test';
import { el, xmlDocument } from './xml.ts';

describe('xml writer', () => {
  test('text and attribute values are escaped; empty elements close themselves; missing parts are left out', () => {
    const hostile = `</title><script>alert(1)</script>"'&`;
    const out = xmlDocument(
      el('feed', { xmlns: 'http://www.w3.org/2005/Atom' }, [
        el('title', null, [hostile]),
        el('link', { href: hostile, rel: undefined }),
        null,
        false,
        el('summary', { type: 'text' }, ['']),
      ]),
    );
    expect(out).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">' +
        '<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;</title>' +
        '<link href="&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"/><summary type="text"></summary></feed>\n',
    );
  });

  test('children can go on lines of their own', () => {
    expect(el('urlset', null, [el('url', null, ['a']), el('url', null, ['b'])], '\n').markup).toBe('<urlset>\n<url>a</url>\n<url>b</url>\n</urlset>');
  });
});

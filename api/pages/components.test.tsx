import { describe, expect, test } from 'bun:test';
import { renderFragment } from '../view/document.tsx';
import { Card, ExtLink, SocialList } from './components.tsx';
import { frame } from './layout.tsx';

const EVIL = `<script>alert(1)</script>"><img src=x onerror=alert(2)>'`;

describe('shared page components', () => {
  test('javascript: and data: URLs stay text; http(s) URLs become nofollow links', () => {
    expect(renderFragment(<ExtLink url="javascript:alert(1)">x</ExtLink>)).toBe('x');
    expect(renderFragment(<SocialList socials={{ x: 'data:text/html,<b>', web: 'https://a.example/?q="' }} />)).toBe(
      '<ul class="chips"><li>x</li><li><a href="https://a.example/?q=%22" rel="nofollow noopener ugc">web</a></li></ul>',
    );
  });

  test('hostile listing text is escaped in a card', () => {
    const out = renderFragment(
      <Card s={{ slug: 'a', name: EVIL, tagline: EVIL, category: { slug: 'c', name: EVIL }, votes: 1 } as any} badge={EVIL} metric={EVIL} />,
    );
    expect(out).not.toContain('<script');
    // The only image is the card's own logo from our origin; the hostile one stays text.
    expect(out.match(/<img/g)).toEqual(['<img']);
    expect(out).toContain('<img class="card-logo" src="/logos/a/128.png"');
    expect(out).toContain('<h3><a href="/listings/a">&lt;script>alert(1)&lt;/script>&quot;>&lt;img src=x onerror=alert(2)>\'</a>');
  });

  test('the frame escapes meta in attributes and keeps JSON-LD inside its script element', () => {
    const out = frame(
      { title: EVIL, description: EVIL, path: `/x?q=${EVIL}`, siteName: 'S', siteUrl: 'http://s.example', jsonLd: [{ name: `</script>${EVIL}` }] },
      <p>body</p>,
      { email: EVIL },
    );
    expect(out.startsWith('<!doctype html><html lang="en"><head>')).toBe(true);
    expect([...out.matchAll(/<script\b/g)].length).toBe(2); // site.js and the one JSON-LD block
    const ld = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(out)!;
    expect(JSON.parse(ld[1])).toEqual({ name: `</script>${EVIL}` });
    expect(out).toContain(`<meta property="og:title" content="&lt;script>alert(1)&lt;/script>&quot;>&lt;img src=x onerror=alert(2)>'"/>`);
    expect(out).toContain('<span class="who">Signed in as &lt;script>');
  });
});

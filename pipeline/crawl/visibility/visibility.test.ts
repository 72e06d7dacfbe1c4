// Visible text as a browser shows it: every hiding technique, from <style> blocks, linked
// stylesheets (inlined by the crawler) and style attributes, and what stays visible.
import { describe, expect, test } from 'bun:test';
import { loadHtml, visibleText } from '../page-text.ts';
import { withStylesheets } from '../stylesheets.ts';
import { mediaApplies, relevantCss } from './css-rules.ts';

const text = (body: string, css = '') => visibleText(loadHtml(`<html><head><style>${css}</style></head><body>${body}</body></html>`));

describe('text hidden by stylesheet rules is not visible', () => {
  const cases: [string, string][] = [
    ['display none', '.x{display:none}'],
    ['visibility hidden', '#x{visibility:hidden}'],
    ['opacity 0', 'div.x{opacity:0}'],
    ['off-screen left', '.x{position:absolute;left:-9999px}'],
    ['off-screen top, fixed', '.x{position:fixed;top:-5000px}'],
    ['clip rect of no area', '.x{position:absolute!important;clip:rect(1px,1px,1px,1px)}'],
    ['clip-path inset 50%', '.x{clip-path:inset(50%)}'],
    ['clip-path circle 0', '.x{clip-path:circle(0)}'],
    ['1px box with overflow hidden', '.x{width:1px;height:1px;overflow:hidden;position:absolute}'],
    ['negative text-indent', '.x{text-indent:-9999px;overflow:hidden}'],
    ['transform scale 0', '.x{transform:scale(0)}'],
    ['zero font size', '.x{font-size:0}'],
    ['zero height, not openable', '.x{height:0;overflow:hidden}'],
  ];
  for (const [name, css] of cases) {
    test(name, () => {
      expect(text('<p>Seen.</p><div class="x" id="x">Planted fact.</div>', css)).toBe('Seen.');
    });
  }
  test('screen-reader-only utility classes without their stylesheet', () => {
    for (const cls of ['sr-only', 'visually-hidden', 'screen-reader-text']) {
      expect(text(`<p>Seen.</p><span class="${cls}">Planted.</span>`)).toBe('Seen.');
    }
  });
  test('display utilities without a stylesheet count unless a responsive variant shows the element', () => {
    expect(text('<p>Seen.</p><div class="d-none">Planted.</div>')).toBe('Seen.');
    expect(text('<nav class="hidden md:flex"><a href="/">Menu</a></nav>')).toBe('Menu');
  });
});

describe('what stays visible', () => {
  test('a desktop media query shows what a mobile rule hides; print rules do not apply', () => {
    const css = '.nav{display:none}@media (min-width:768px){.nav{display:flex}}@media print{.p{display:none}}';
    expect(text('<div class="nav">Menu</div><p class="p">Body</p>', css)).toBe('Menu\nBody');
  });
  test('interaction states (:hover, :focus) never apply, :not(:focus) does', () => {
    expect(text('<h1 class="h">Title</h1>', '.h:hover{opacity:0}')).toBe('Title');
    expect(text('<p>A</p><span class="v">B</span>', '.v:not(:focus){position:absolute;width:1px;height:1px;overflow:hidden}')).toBe('A');
  });
  test('importance and specificity decide, as in a browser', () => {
    expect(text('<div id="a" class="x">Shown</div>', '#a{display:block}.x{display:none}')).toBe('Shown');
    expect(text('<div id="a" class="x">Gone</div>', '#a{display:block}.x{display:none!important}')).toBe('');
  });
  test("a child that resets a zero font size is visible, its parent's own text is not", () => {
    expect(text('<div class="z">Planted.<span class="k">Registered in Portugal.</span></div>', '.z{font-size:0}.z .k{font-size:14px}')).toBe(
      'Registered in Portugal.',
    );
  });
  test('accordion panels a control opens are visible (aria-controls, data-bs-target, after aria-expanded)', () => {
    const css = '.collapse:not(.show){display:none}.panel{max-height:0;overflow:hidden}';
    expect(text('<button aria-controls="p1">Q1?</button><div id="p1" class="collapse">A1.</div>', css)).toBe('Q1?\nA1.');
    expect(text('<h3><button aria-expanded="false">Q2?</button></h3><div class="panel">A2.</div>', css)).toBe('Q2?\nA2.');
  });
  test('menu links without spaces between them are separate lines, not glued words', () => {
    expect(text('<div class="m"><a href="/">Product</a><a href="/f">Features</a></div><span>Jane Doe</span>', '.m a{display:inline-block}')).toBe(
      'Product\nFeatures\nJane Doe',
    );
    expect(text('<nav><a href="/">Home</a><a href="/p">Pricing</a></nav>')).toBe('Home\nPricing');
    expect(text('<p>Write to <a href="mailto:a@b.c">a@b.c</a>.</p>')).toBe('Write to a@b.c.');
  });
});

describe('linked stylesheets', () => {
  test('only the rules that decide visibility are kept, and a print or narrow-screen rule is not', () => {
    const css = 'body{color:red;font-family:x}.h{display:none}@media print{.p{display:none}}@media (max-width:600px){.m{display:none}}.a::before{display:none}';
    expect(relevantCss(css)).toBe('.h{display:none}');
    expect(mediaApplies('screen and (min-width: 1024px)')).toBe(true);
    expect(mediaApplies('(max-width: 767px)')).toBe(false);
  });
  test('inlined into the page head, they hide text the same way on every later reading', () => {
    const html =
      '<!doctype html><html><head><title>T</title><style>.h{display:block}</style></head><body><p class="h">Own rule wins</p><p class="g">Gone</p></body></html>';
    const stored = withStylesheets(html, [{ url: 'https://site.test/a.css', css: '.h{display:none}.g{display:none}' }]);
    expect(visibleText(loadHtml(stored))).toBe('Own rule wins');
  });
});

describe('script-driven pages', () => {
  test('entrance animations that start transparent are visible; a bare opacity 0 is not', () => {
    expect(text('<h1 data-w-id="a1" style="opacity:0;transform:translate3d(0, 20px, 0)">Hero</h1>')).toBe('Hero');
    expect(text('<p data-aos="fade-up" class="x">Card</p>', '[data-aos]{opacity:0}')).toBe('Card');
    expect(text('<p style="opacity:0">Planted</p><p>Seen</p>')).toBe('Seen');
    expect(text('<p data-aos="fade-up" style="opacity:0;position:absolute;left:-9999px">Planted</p>')).toBe('');
  });
  test('Webflow conditional visibility hides without its stylesheet', () => {
    expect(text('<p>Seen</p><div class="w-condition-invisible">Empty field</div>')).toBe('Seen');
  });
});

test('a body hidden until a script runs is still the page', () => {
  expect(text('<p>Seen</p>', 'body{opacity:0}')).toBe('Seen');
  expect(visibleText(loadHtml('<html><body style="visibility:hidden"><p>Seen</p></body></html>'))).toBe('Seen');
});

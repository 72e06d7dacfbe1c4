import { describe, expect, test } from 'bun:test';
import { describeBadge } from './catalogue.ts';
import { escapeMarkup as escapeXml } from '../escape.ts';
import { badgeDimensions, MODES, renderBadgeSvg, SHAPES, SIZES, type BadgeArt } from './svg.ts';

// Bun.XML is a conforming XML 1.0 parser: it throws on anything that is not well-formed.
type XmlNode = { name: string; attributes: Record<string, string>; children: (string | XmlNode | object)[] };
const parse = (svg: string) => Bun.XML.parse(svg, { compact: false }) as unknown as XmlNode;
const elements = (n: XmlNode): XmlNode[] => [n, ...n.children.flatMap((c) => (typeof c === 'object' && 'name' in c ? elements(c as XmlNode) : []))];
const textOf = (n: XmlNode): string => n.children.map((c) => (typeof c === 'string' ? c : 'name' in c ? textOf(c as XmlNode) : '')).join('');

const row = (kind: string, extra: object = {}) => ({ kind, rank: null, week: null, rating_avg: null, rating_count: null, ...extra });
const listed = describeBadge(row('listed'), 'Acme', 'Launchpad Directory').art;
const award = describeBadge(row('award-2025-03-03', { rank: 2, week: '2025-03-03' }), 'Acme', 'Launchpad Directory').art;

describe('renderBadgeSvg', () => {
  for (const shape of SHAPES)
    for (const mode of MODES)
      for (const size of SIZES) {
        test(`${shape} ${mode} ${size} is well-formed SVG of the size's dimensions`, () => {
          for (const art of [listed, award]) {
            const root = parse(renderBadgeSvg(art, shape, mode, size));
            expect(root.name).toBe('svg');
            expect(root.attributes.xmlns).toBe('http://www.w3.org/2000/svg');
            const { width, height } = badgeDimensions(shape, size);
            expect(root.attributes.width).toBe(String(width));
            expect(root.attributes.height).toBe(String(height));
            expect(root.attributes.role).toBe('img');
            const title = root.children.find((c) => typeof c === 'object' && (c as XmlNode).name === 'title') as XmlNode;
            expect(textOf(title)).toBe(art.title);
            expect(root.attributes['aria-labelledby']).toBe(title.attributes.id);
            const shown = elements(root)
              .filter((e) => e.name === 'text')
              .map(textOf)
              .join(' ');
            expect(shown).toContain('Launchpad Directory');
            expect(shown.toUpperCase()).toContain(art.caption.toUpperCase().split(' ')[0]);
          }
        });
      }

  test('sizes grow from s to l for every shape', () => {
    for (const shape of SHAPES) {
      const [s, m, l] = SIZES.map((z) => badgeDimensions(shape, z));
      expect(s.width).toBeLessThan(m.width);
      expect(m.width).toBeLessThan(l.width);
      expect(s.height).toBeLessThan(m.height);
      expect(m.height).toBeLessThan(l.height);
    }
  });

  test('dark differs from light', () => {
    for (const shape of SHAPES) expect(renderBadgeSvg(listed, shape, 'dark', 'm')).not.toBe(renderBadgeSvg(listed, shape, 'light', 'm'));
  });

  test('award badges show the rank and the week', () => {
    for (const shape of SHAPES) {
      const shown = elements(parse(renderBadgeSvg(award, shape, 'light', 'm')))
        .filter((e) => e.name === 'text')
        .map(textOf)
        .join(' ');
      expect(shown.toUpperCase()).toContain('LAUNCH OF THE WEEK #2');
      expect(shown).toContain('2025-03-03');
    }
  });

  test('text is XML-escaped: markup-like names stay text and the document stays well-formed', () => {
    const nasty = `Tools & "Things" <Hub> 'x' ]]> &amp;`;
    const art: BadgeArt = { ...listed, siteName: nasty, title: `Acme <script>alert(1)</script> & co`, extra: '<b>&</b>' };
    for (const shape of SHAPES) {
      const root = parse(renderBadgeSvg(art, shape, 'light', 'm'));
      expect(elements(root).map((e) => e.name)).not.toContain('script');
      expect(elements(root).map((e) => e.name)).not.toContain('Hub');
      expect(textOf(elements(root).find((e) => e.name === 'title')!)).toBe(art.title);
      const shown = elements(root)
        .filter((e) => e.name === 'text')
        .map(textOf)
        .join(' ');
      expect(shown).toContain('Tools & ');
    }
  });

  test('characters XML forbids are dropped rather than breaking the document', () => {
    expect(escapeXml('a\u0000b\u001Fc\u0007')).toBe('abc');
    const art: BadgeArt = { ...listed, siteName: 'Bad\u0001Name', title: 'T\u0002' };
    expect(() => parse(renderBadgeSvg(art, 'standard', 'light', 'm'))).not.toThrow();
  });

  test('a long site name is drawn smaller and cut to fit, while the title keeps it whole', () => {
    const long = 'An Extraordinarily Long Directory Name That Would Never Fit On Any Badge At All';
    const art: BadgeArt = { ...listed, siteName: long, title: `Listed on ${long}` };
    for (const shape of SHAPES) {
      const root = parse(renderBadgeSvg(art, shape, 'light', 'm'));
      const texts = elements(root).filter((e) => e.name === 'text');
      const siteText = texts.map(textOf).find((t) => t.includes('An Extra'))!;
      expect(siteText).toContain('…');
      expect(siteText).not.toContain('At All');
      expect(textOf(elements(root).find((e) => e.name === 'title')!)).toBe(`Listed on ${long}`);
    }
  });
});

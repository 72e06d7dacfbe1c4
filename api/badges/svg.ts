// SVG badge templates: 5 shapes x light/dark x 3 sizes, drawn as plain strings (no library).
// Each shape is drawn once in its own coordinates (viewBox); a size only scales width/height.
import { escapeMarkup } from '../escape.ts';

export const SHAPES = ['standard', 'outline', 'pill', 'banner', 'square'] as const;
export const MODES = ['light', 'dark'] as const;
export const SIZES = ['s', 'm', 'l'] as const;
export type Shape = (typeof SHAPES)[number];
export type Mode = (typeof MODES)[number];
export type Size = (typeof SIZES)[number];
export type Family = 'listed' | 'launched' | 'featured' | 'verified' | 'award' | 'top-rated';

/** What a badge image says. `extra` is the optional third line (an award's week, a rating). */
export interface BadgeArt {
  family: Family;
  /** Short upper line, e.g. "LISTED ON" or "LAUNCH OF THE WEEK #1". */
  caption: string;
  /** The banner's one-line sentence before the site name, e.g. "Listed on". */
  lead: string;
  siteName: string;
  extra: string | null;
  /** Accessible name: the SVG <title>. */
  title: string;
  /** Drawn inside the icon circle instead of a glyph (an award's rank). */
  iconText?: string;
}

const SCALE: Record<Size, number> = { s: 0.8, m: 1, l: 1.25 };
const BASE: Record<Shape, { w: number; h: number }> = {
  standard: { w: 250, h: 54 },
  outline: { w: 250, h: 54 },
  pill: { w: 250, h: 48 },
  banner: { w: 440, h: 40 },
  square: { w: 160, h: 160 },
};

export function badgeDimensions(shape: Shape, size: Size): { width: number; height: number } {
  const { w, h } = BASE[shape];
  return { width: Math.round(w * SCALE[size]), height: Math.round(h * SCALE[size]) };
}

const PALETTE: Record<Mode, { bg: string; border: string; text: string; muted: string; glyph: string }> = {
  light: { bg: '#ffffff', border: '#d0d7de', text: '#1f2328', muted: '#57606a', glyph: '#ffffff' },
  dark: { bg: '#161b22', border: '#30363d', text: '#f0f6fc', muted: '#9da7b3', glyph: '#0d1117' },
};
const ACCENT: Record<Family, Record<Mode, string>> = {
  listed: { light: '#2563eb', dark: '#60a5fa' },
  launched: { light: '#16a34a', dark: '#4ade80' },
  featured: { light: '#d97706', dark: '#fbbf24' },
  verified: { light: '#0891b2', dark: '#22d3ee' },
  award: { light: '#b7791f', dark: '#f6c453' },
  'top-rated': { light: '#db2777', dark: '#f472b6' },
};

// Glyphs in a 24x24 box, drawn in the glyph colour on the accent circle.
const STAR = '<path d="M12 4.5l2.2 4.6 5 .7-3.6 3.5.9 5-4.5-2.4-4.5 2.4.9-5-3.6-3.5 5-.7z" fill="G"/>';
const GLYPH: Record<Family, string> = {
  listed: '<path d="M7 8h10M7 12h10M7 16h6" stroke="G" stroke-width="2" stroke-linecap="round" fill="none"/>',
  launched: '<path d="M12 18V6M7 11l5-5 5 5" stroke="G" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round" fill="none"/>',
  featured: STAR,
  verified: '<path d="M6.5 12.5l3.5 3.5 7.5-7.5" stroke="G" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round" fill="none"/>',
  award: STAR,
  'top-rated': STAR,
};

const FONT = `font-family="Inter, -apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif"`;

/** Long site names are cut for drawing (the <title> keeps the whole text). */
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s);

/**
 * Without font metrics, estimate the width (em: average glyph width per font size, on the wide
 * side). Text that would overflow its box is drawn smaller, down to 70%; past that it is cut with
 * an ellipsis. (textLength is avoided: it also stretches text narrower than the estimate.)
 */
function fit(text: string, fontSize: number, maxWidth: number, em = 0.62): { text: string; size: number } {
  const natural = text.length * fontSize * em;
  if (natural <= maxWidth) return { text, size: fontSize };
  const scaled = Math.floor((10 * fontSize * maxWidth) / natural) / 10; // rounded down: still fits
  if (scaled >= fontSize * 0.7) return { text, size: scaled };
  const size = Math.ceil(fontSize * 7) / 10;
  return { text: clip(text, Math.floor(maxWidth / (size * em))), size };
}

function icon(art: BadgeArt, mode: Mode, cx: number, cy: number, r: number): string {
  const accent = ACCENT[art.family][mode];
  const glyphColour = PALETTE[mode].glyph;
  const inner = art.iconText
    ? `<text x="${cx}" y="${cy + r * 0.36}" text-anchor="middle" font-size="${(r * 1.05).toFixed(1)}" font-weight="800" fill="${glyphColour}">${escapeMarkup(art.iconText)}</text>`
    : `<g transform="translate(${cx - r * 0.75} ${cy - r * 0.75}) scale(${((r * 1.5) / 24).toFixed(4)})">${GLYPH[art.family].replace(/"G"/g, `"${glyphColour}"`)}</g>`;
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${accent}"/>${inner}`;
}

function frame(shape: Shape, mode: Mode, family: Family, w: number, h: number): string {
  const p = PALETTE[mode];
  const rx = shape === 'pill' ? h / 2 : shape === 'square' ? 12 : shape === 'banner' ? 6 : 8;
  const outline = shape === 'outline';
  const fill = outline ? 'none' : p.bg;
  const stroke = outline ? ACCENT[family][mode] : p.border;
  return `<rect x="0.75" y="0.75" width="${w - 1.5}" height="${h - 1.5}" rx="${rx}" fill="${fill}" stroke="${stroke}" stroke-width="${outline ? 1.5 : 1}"/>`;
}

/** Caption, site name and the optional extra line, left-aligned beside the icon or centred under it. */
function lines(art: BadgeArt, mode: Mode, x: number, maxWidth: number, ys: number[], sizes: number[], anchor: 'start' | 'middle'): string {
  const p = PALETTE[mode];
  const a = anchor === 'middle' ? ' text-anchor="middle"' : '';
  const line = (text: string, i: number, em: number, style: string) => {
    const f = fit(text, sizes[i], maxWidth, em);
    return `<text x="${x}" y="${ys[i]}"${a} font-size="${f.size}" ${style}>${escapeMarkup(f.text)}</text>`;
  };
  return (
    line(art.caption.toUpperCase(), 0, 0.72, `font-weight="600" letter-spacing="0.5" fill="${ACCENT[art.family][mode]}"`) +
    line(art.siteName, 1, 0.62, `font-weight="700" fill="${p.text}"`) +
    (art.extra ? line(art.extra, 2, 0.6, `font-weight="500" fill="${p.muted}"`) : '')
  );
}

function body(art: BadgeArt, shape: Shape, mode: Mode, w: number, _h: number): string {
  const three = art.extra !== null;
  switch (shape) {
    case 'banner': {
      // one line: lead, site name in bold, then the extra muted
      const p = PALETTE[mode];
      const sentence = `${art.lead} ${art.siteName}${art.extra ? ` · ${art.extra}` : ''}`;
      const f = fit(sentence, 14, w - 52, 0.6);
      // The cut (if any) falls on the site name or the extra; the lead stays whole.
      const site = f.text.slice(art.lead.length + 1, art.lead.length + 1 + art.siteName.length);
      const rest = f.text.slice(art.lead.length + 1 + site.length).replace(/^\s*·\s*/, '');
      return (
        icon(art, mode, 20, 20, 12) +
        `<text x="40" y="25" font-size="${f.size}" fill="${p.text}"><tspan font-weight="500">${escapeMarkup(art.lead)}</tspan> ` +
        `<tspan font-weight="700">${escapeMarkup(site)}</tspan>` +
        (rest ? ` <tspan font-weight="500" fill="${p.muted}">· ${escapeMarkup(rest)}</tspan>` : '') +
        '</text>'
      );
    }
    case 'square':
      return icon(art, mode, 80, 46, 24) + lines(art, mode, 80, w - 16, three ? [94, 117, 138] : [100, 124, 0], three ? [9.5, 15, 10] : [10, 16, 0], 'middle');
    case 'pill':
      return icon(art, mode, 24, 24, 15) + lines(art, mode, 46, w - 46 - 22, three ? [16, 30, 41] : [20, 36, 0], three ? [8, 13, 8] : [9, 15, 0], 'start');
    default: // standard and outline share a layout
      return (
        icon(art, mode, 27, 27, 16) + lines(art, mode, 52, w - 52 - 12, three ? [17, 33, 46] : [22, 40, 0], three ? [8.5, 14, 8.5] : [9.5, 16, 0], 'start')
      );
  }
}

/** The whole SVG document of one badge. */
export function renderBadgeSvg(art: BadgeArt, shape: Shape, mode: Mode, size: Size): string {
  const { w, h } = BASE[shape];
  const { width, height } = badgeDimensions(shape, size);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="badge-title" ${FONT}>` +
    `<title id="badge-title">${escapeMarkup(art.title)}</title>` +
    frame(shape, mode, art.family, w, h) +
    body(art, shape, mode, w, h) +
    '</svg>'
  );
}

// The ways a page hides text from a visitor while keeping it in the markup, each a named rule
// over an element's cascaded style (property -> value). What one of these hides is never page
// text: hidden text is where planted instructions and invented "facts" live.
export type Style = ReadonlyMap<string, string>;

/** A length in px (em/rem as 16px); percentages and other units give null. */
export function px(value: string | undefined): number | null {
  if (value === undefined) return null;
  const m = /^(-?[\d.]+)(px|em|rem|pt)?$/.exec(value.trim());
  if (m === null) return null;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return null;
  return m[2] === 'em' || m[2] === 'rem' ? n * 16 : m[2] === 'pt' ? (n * 4) / 3 : m[2] === undefined && n !== 0 ? null : n;
}

const FAR = -500; // px: further than any screen reaches

/** display: none. */
export const displayNone = (s: Style) => s.get('display') === 'none';

/** visibility: hidden or collapse. */
export const visibilityHidden = (s: Style) => s.get('visibility') === 'hidden' || s.get('visibility') === 'collapse';

/** opacity: 0 (or all but 0). */
export function transparent(s: Style): boolean {
  const v = s.get('opacity');
  if (v === undefined) return false;
  const n = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
  return Number.isFinite(n) && n <= 0.01;
}

/** Absolutely or fixed positioned far outside the viewport (left: -9999px and the like). */
export function offScreen(s: Style): boolean {
  const position = s.get('position');
  if (position !== 'absolute' && position !== 'fixed') return false;
  return ['left', 'top', 'right'].some((side) => {
    const v = px(s.get(side));
    return v !== null && v <= FAR;
  });
}

/** Moved away or shrunk to nothing by a transform: translate(-9999px), scale(0). */
export function transformedAway(s: Style): boolean {
  const t = s.get('transform');
  if (t === undefined) return false;
  if (/\bscale[xy]?\(\s*0(\.0+)?\s*[,)]/.test(t)) return true;
  return [...t.matchAll(/translate[xy]?\(\s*(-?[\d.]+(?:px|em|rem)?)/g)].some((m) => (px(m[1]) ?? 0) <= FAR);
}

/** clip: rect(...) of no area on a positioned element (the screen-reader-only pattern). */
export function clippedRect(s: Style): boolean {
  const clip = s.get('clip');
  if (clip === undefined || !/^rect\(/.test(clip)) return false;
  const n = clip
    .slice(5)
    .replace(/\)\s*$/, '')
    .split(/[\s,]+/)
    .filter((x) => x !== '')
    .map((x) => (x === 'auto' ? null : px(x)));
  if (n.length !== 4 || n.some((x) => x === null)) return false;
  const [top, right, bottom, left] = n as number[];
  return bottom! - top! <= 1 || right! - left! <= 1;
}

/** clip-path that leaves nothing: inset(50%) or more, circle(0), ellipse(0 0). */
export function clippedPath(s: Style): boolean {
  const v = s.get('clip-path');
  if (v === undefined) return false;
  const inset = /^inset\(\s*([\d.]+)(%|px)?/.exec(v);
  if (inset !== null) return inset[2] === '%' ? Number(inset[1]) >= 50 : false;
  return /^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(v);
}

const overflowHidden = (s: Style) => ['overflow', 'overflow-x', 'overflow-y'].some((p) => /^(hidden|clip)\b/.test(s.get(p) ?? ''));

/** A box of at most 1px (or max-height 0) that hides its overflow. */
export function zeroSize(s: Style): boolean {
  if (!overflowHidden(s)) return false;
  const tiny = (p: string) => {
    const v = px(s.get(p));
    return v !== null && v <= 1;
  };
  return tiny('width') || tiny('height') || tiny('max-height') || tiny('max-width');
}

/** A collapsed panel (height or max-height 0, overflow hidden): opened by a visitor's click. */
export function collapsed(s: Style): boolean {
  if (!overflowHidden(s)) return false;
  return px(s.get('height')) === 0 || px(s.get('max-height')) === 0;
}

/** text-indent far to the left (image replacement): the element's text is off-screen. */
export function indentedAway(s: Style): boolean {
  const v = s.get('text-indent');
  if (v === undefined) return false;
  if (/^-\d+(\.\d+)?%$/.test(v)) return Number(v.slice(0, -1)) <= -100;
  const n = px(v);
  return n !== null && n <= FAR;
}

/** font-size: 0 on the element itself. Inherited unless a descendant sets a size of its own. */
export function zeroFont(s: Style): boolean {
  const v = s.get('font-size');
  return v !== undefined && /^0(\.0+)?(px|em|rem|pt|%)?$/.test(v);
}

/** A font size that does not depend on the parent's (so it resets an inherited 0). */
export function absoluteFontSize(s: Style): boolean {
  const v = s.get('font-size');
  if (v === undefined || zeroFont(s)) return false;
  return /^[\d.]+(px|rem|pt|vw|vh)$/.test(v) || /^(xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large)$/.test(v);
}

/** Hidden in a way a visitor can open (an accordion panel, a closed disclosure). */
export const openable = (s: Style) => displayNone(s) || collapsed(s);

/** Hidden whatever a visitor does. */
export const alwaysHidden = (s: Style) =>
  visibilityHidden(s) ||
  transparent(s) ||
  offScreen(s) ||
  transformedAway(s) ||
  clippedRect(s) ||
  clippedPath(s) ||
  (zeroSize(s) && !collapsed(s)) ||
  indentedAway(s);

/** Display values that start a new line of text (everything but inline flow). */
export const startsLine = (s: Style) => {
  const d = s.get('display');
  return d !== undefined && !/^(inline|contents|none|ruby|initial|inherit|unset|revert)$/.test(d);
};

// The 1200x630 share image of a listing (og:image): laid out by satori (flexbox to SVG) with Inter
// from @fontsource/inter, rasterised by resvg. Rendered on the server when what it shows changes.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';

export const SHARE_WIDTH = 1200;
export const SHARE_HEIGHT = 630;
const PAD = 72;

export interface ShareContent {
  name: string;
  tagline: string | null;
  votes: number;
  launch_week: string | null;
  site_name: string;
  /** A square PNG of the logo, or of the initials tile. */
  logo_png: Buffer;
}

const require = createRequire(import.meta.url);
let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | undefined;
// satori reads TTF, OTF and WOFF (not WOFF2); the package ships WOFF for each subset and weight.
const loadFonts = () =>
  (fonts ??= Promise.all(
    ([400, 700] as const).map(async (weight) => ({
      name: 'Inter',
      weight,
      style: 'normal' as const,
      data: await readFile(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
    })),
  ));

/** A hash of everything the image shows: the stored image is reused while it is unchanged. */
export const shareFingerprint = (c: ShareContent) =>
  createHash('sha256')
    .update(JSON.stringify([c.name, c.tagline, c.votes, c.launch_week, c.site_name]))
    .update(c.logo_png)
    .digest('base64url')
    .slice(0, 43);

type Node = { type: string; props: { style?: Record<string, unknown>; children?: unknown; src?: string; width?: number; height?: number } };
const el = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, children, ...extra },
});

export async function renderShareImage(c: ShareContent): Promise<Buffer> {
  const logo = `data:image/png;base64,${c.logo_png.toString('base64')}`;
  const facts = [`${c.votes} ${c.votes === 1 ? 'upvote' : 'upvotes'}`, c.launch_week ? `Launched week of ${c.launch_week}` : null]
    .filter(Boolean)
    .join('   ·   ');
  const tree = el(
    'div',
    {
      // satori sizes boxes without their padding (content-box): the padding is taken off here.
      width: SHARE_WIDTH - 2 * PAD,
      height: SHARE_HEIGHT - 2 * PAD,
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: PAD,
      background: '#f8fafc',
      fontFamily: 'Inter',
    },
    [
      el('div', { display: 'flex', alignItems: 'center' }, [
        el('img', { width: 160, height: 160, borderRadius: 28 }, undefined, { src: logo, width: 160, height: 160 }),
        el('div', { display: 'flex', flexDirection: 'column', marginLeft: 48, flex: 1 }, [
          el('div', { fontSize: 72, fontWeight: 700, color: '#0f172a', lineHeight: 1.1 }, c.name.slice(0, 60)),
          c.tagline ? el('div', { fontSize: 36, color: '#334155', marginTop: 16, lineHeight: 1.3 }, c.tagline.slice(0, 120)) : null,
        ]),
      ]),
      el('div', { display: 'flex', justifyContent: 'space-between', alignItems: 'center', fontSize: 30, color: '#475569' }, [
        el('div', { display: 'flex' }, facts),
        el('div', { display: 'flex', fontWeight: 700, color: '#2563eb' }, c.site_name.slice(0, 60)),
      ]),
    ],
  );
  const svg = await satori(tree as never, { width: SHARE_WIDTH, height: SHARE_HEIGHT, fonts: await loadFonts() });
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: SHARE_WIDTH } }).render().asPng());
}

// A fetched logo made safe to serve: its type is read from the bytes (not from what the site
// claims), SVG is rasterised, and every size the pages use is a square PNG made with sharp.
import { createHash } from 'node:crypto';
import sharp from 'sharp';

export const LOGO_SIZES = [64, 128, 256] as const;
export type LogoSize = (typeof LOGO_SIZES)[number];
const ACCEPTED = new Set(['png', 'jpeg', 'webp', 'gif', 'svg', 'avif']);
/** A logo larger than this in either dimension is refused before decoding (decompression bombs). */
const MAX_PIXELS = 4096 * 4096;

export class LogoError extends Error {}

export interface LogoImage {
  size: LogoSize;
  png: Buffer;
  etag: string;
}

export async function logoImages(bytes: Uint8Array): Promise<LogoImage[]> {
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata()).format;
  } catch {
    throw new LogoError('not an image sharp can read');
  }
  if (!format || !ACCEPTED.has(format)) throw new LogoError(`unsupported image type ${format ?? 'unknown'}`);
  const out: LogoImage[] = [];
  for (const size of LOGO_SIZES) {
    // SVG is rendered at the target size (density scales its viewBox), never passed through.
    const png = await sharp(bytes, { limitInputPixels: MAX_PIXELS, density: format === 'svg' ? 300 : undefined, animated: false })
      .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    out.push({ size, png, etag: createHash('sha256').update(png).digest('base64url').slice(0, 27) });
  }
  return out;
}

const PALETTE = ['#2563eb', '#7c3aed', '#db2777', '#dc2626', '#ea580c', '#16a34a', '#0d9488', '#0891b2', '#4f46e5', '#9333ea'];

/** Up to two initials of a name ("Acme Cloud" -> "AC", "figma" -> "F"). */
export function initialsOf(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[1][0] : (words[0]?.[0] ?? '?');
  return letters.toUpperCase();
}

/** The tile shown when a listing has no logo: its initials on a colour picked from its name. */
export async function initialsTile(name: string, size: LogoSize): Promise<Buffer> {
  const colour = PALETTE[createHash('sha256').update(name).digest()[0] % PALETTE.length];
  const text = initialsOf(name).replace(/[<&>"]/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
<rect width="100" height="100" rx="18" fill="${colour}"/>
<text x="50" y="50" dy=".35em" text-anchor="middle" font-family="Inter, Helvetica, Arial, sans-serif" font-weight="700" font-size="${text.length > 1 ? 40 : 50}" fill="#fff">${text}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

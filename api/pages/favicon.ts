import { etagOf } from '../http/execute.ts';

/**
 * /favicon.ico: the site's icon, a white L on the site's blue, as a real ICO (one 32x32 32-bit
 * image), since browsers and crawlers ask for that path whatever the pages link. Drawn here rather
 * than shipped as a binary file, so the repository holds no opaque blobs; it is built once at start.
 */
function drawIcon(size = 32): Uint8Array<ArrayBuffer> {
  const blue = [0xad, 0x5c, 0x0b, 0xff]; // BGRA of #0b5cad
  const white = [0xff, 0xff, 0xff, 0xff];
  const clear = [0, 0, 0, 0];
  const corner = 5;
  const pixel = (x: number, y: number) => {
    // Rounded corners: outside the quarter circles is transparent.
    const cx = x < corner ? corner : x >= size - corner ? size - corner - 1 : x;
    const cy = y < corner ? corner : y >= size - corner ? size - corner - 1 : y;
    if ((x - cx) ** 2 + (y - cy) ** 2 > corner ** 2) return clear;
    // The L: a stem and a foot, y counted from the top.
    const stem = x >= 10 && x <= 14 && y >= 7 && y <= 24;
    const foot = x >= 10 && x <= 22 && y >= 20 && y <= 24;
    return stem || foot ? white : blue;
  };
  const header = 40;
  const pixels = size * size * 4;
  const mask = size * (size / 8); // 1 bit a pixel, rows already 4-byte aligned at 32
  const image = new Uint8Array(header + pixels + mask);
  const view = new DataView(image.buffer);
  view.setUint32(0, header, true);
  view.setInt32(4, size, true);
  view.setInt32(8, size * 2, true); // ICO bitmaps count the mask's rows too
  view.setUint16(12, 1, true);
  view.setUint16(14, 32, true);
  view.setUint32(20, pixels + mask, true);
  // Bitmaps run bottom-up.
  for (let y = 0; y < size; y++) image.set(row(size - 1 - y), header + y * size * 4);
  function row(y: number): number[] {
    const out: number[] = [];
    for (let x = 0; x < size; x++) out.push(...pixel(x, y));
    return out;
  }
  const ico = new Uint8Array(6 + 16 + image.length);
  const dir = new DataView(ico.buffer);
  dir.setUint16(2, 1, true); // type: icon
  dir.setUint16(4, 1, true); // one image
  ico[6] = size;
  ico[7] = size;
  dir.setUint16(10, 1, true); // colour planes
  dir.setUint16(12, 32, true); // bits per pixel
  dir.setUint32(14, image.length, true);
  dir.setUint32(18, 22, true); // offset of the image
  ico.set(image, 22);
  return ico;
}

const ICON = drawIcon();
const ETAG = etagOf(Buffer.from(ICON).toString('base64'));

export function faviconResponse(request: Request): Response {
  const headers = { 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400', etag: ETAG };
  if (request.headers.get('if-none-match') === ETAG) return new Response(null, { status: 304, headers });
  return new Response(ICON, { headers });
}

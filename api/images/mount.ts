// Pictures from the service's own origin: GET /logos/{slug}/{64|128|256}.png (the stored logo, or
// an initials tile when there is none) and GET /share/{slug}.png (the 1200x630 og:image).
import { Elysia } from 'elysia';
import { LRUCache } from 'lru-cache';
import type { AppDeps } from '../deps.ts';
import { etagMatches } from '../http/execute.ts';
import { problem, problemResponse } from '../http/problem.ts';
import { LOGO_SIZES, type LogoSize } from '../../core/images/logo-image.ts';
import { listingLogo, listingShareImage, type ServedImage } from '../../core/images/serve.ts';

const SLUG = '[a-z0-9][a-z0-9-]{0,219}';
const LOGO_FILE = /^(64|128|256)\.png$/;
const SHARE_FILE = new RegExp(`^(${SLUG})\\.png$`);
const SLUG_ONLY = new RegExp(`^${SLUG}$`);
// A logo changes rarely (a re-crawl): browsers keep it a day and may use it a week while revalidating.
const LOGO_CACHE = 'public, max-age=86400, stale-while-revalidate=604800';
// The share image shows the vote count: crawlers may keep it an hour.
const SHARE_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';

export function imagesPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log'>) {
  const { config, sql, site, log } = deps;
  const notFound = (request: Request) => problemResponse(request, problem(config.siteUrl, 'not-found', 'No listing with this slug, or no such image.'));
  const send = (request: Request, img: ServedImage, cacheControl: string) => {
    const etag = `"${img.etag}"`;
    const headers = {
      'content-type': 'image/png',
      'cache-control': cacheControl,
      etag,
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (etagMatches(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(new Uint8Array(img.png), { headers });
  };
  type Req = { request: Request; params: Record<string, string> };
  // Each edge keeps recent images a minute (about 40 MB at most): a page of cards or a crawler's
  // burst then costs no query; a new logo or vote shows within the minute.
  const memo = new LRUCache<string, ServedImage | 'none'>({
    maxSize: 40_000_000,
    sizeCalculation: (v) => (v === 'none' ? 100 : v.png.length + 100),
    ttl: 60_000,
  });
  const cached = async (key: string, load: () => Promise<ServedImage | null>) => {
    const hit = memo.get(key);
    if (hit) return hit === 'none' ? null : hit;
    const img = await load();
    memo.set(key, img ?? 'none');
    return img;
  };

  return new Elysia({ name: 'images' })
    .get(
      '/logos/:slug/:file',
      async ({ request, params }: Req) => {
        const size = LOGO_FILE.exec(params.file);
        if (!SLUG_ONLY.test(params.slug) || !size) return notFound(request);
        const img = await cached(`logo:${params.slug}:${size[1]}`, () => listingLogo(sql, site.id, params.slug, Number(size[1]) as LogoSize));
        return img ? send(request, img, LOGO_CACHE) : notFound(request);
      },
      { parse: 'none' } as never,
    )
    .get(
      '/share/:file',
      async ({ request, params }: Req) => {
        const m = SHARE_FILE.exec(params.file);
        if (!m) return notFound(request);
        try {
          const img = await cached(`share:${m[1]}`, () => listingShareImage(sql, site, m[1]));
          return img ? send(request, img, SHARE_CACHE) : notFound(request);
        } catch (err) {
          log.error({ err }, 'share image failed');
          return problemResponse(request, problem(config.siteUrl, 'internal', 'The share image could not be rendered.'));
        }
      },
      { parse: 'none' } as never,
    );
}

export const logoPath = (slug: string, size: LogoSize = 128) => `/logos/${slug}/${size}.png`;
export const sharePath = (slug: string) => `/share/${slug}.png`;
export { LOGO_SIZES };

import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { problem, problemResponse } from '../http/problem.ts';
import { abandonedAnswer, answerRead, readThrough } from '../http/public-read.ts';
import { rateGate } from '../http/rate-gate.ts';
import { listingBadges } from '../../sql/queries/badges.ts';
import { referringHost } from '../../core/stats/record.ts';
import { BadgeImpressionCounter } from '../../core/stats/read-counter.ts';
import { describeBadge, KIND_PATTERN } from './catalogue.ts';
import { MODES, renderBadgeSvg, SHAPES, SIZES, type Mode, type Shape, type Size } from './svg.ts';

const SLUG = /^[a-z0-9][a-z0-9-]{0,219}$/;
/** Badges sit on other sites' homepages: let browsers and CDNs keep them a few minutes. */
const CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=600';

interface Choice {
  shape: Shape;
  mode: Mode;
  size: Size;
}
type Issue = { field: string; in: 'query'; message: string };

/** Reads shape, mode and size (defaults standard, light, m). Other parameters, e.g. cache busters, are ignored. */
function readQuery(url: URL): { choice: Choice; issues: Issue[] } {
  const issues: Issue[] = [];
  const pick = <T extends string>(field: string, allowed: readonly T[], dflt: T): T => {
    const all = url.searchParams.getAll(field);
    if (all.length === 0) return dflt;
    if (all.length > 1) issues.push({ field, in: 'query', message: 'must be given once' });
    else if (!allowed.includes(all[0] as T)) issues.push({ field, in: 'query', message: `must be one of ${allowed.join(', ')}` });
    return all[0] as T;
  };
  const choice = { shape: pick('shape', SHAPES, 'standard'), mode: pick('mode', MODES, 'light'), size: pick('size', SIZES, 'm') };
  return { choice, issues };
}

/**
 * GET {site_url}/badges/{slug}/{kind}.svg?shape=&mode=light|dark&size= — the images get_badges
 * links to. 400 for a bad shape/mode/size, 404 for an unknown listing or a kind it may not show.
 */
export function badgesPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'readSql' | 'site' | 'cache' | 'log' | 'limiter' | 'atStop'>) {
  const { config, site, cache, log } = deps;
  // Badge images are anonymous reads: they spend the client address's anonymous read budget,
  // like any other public read (each visitor's browser loads the badges of the page it shows).
  const gate = rateGate(deps.limiter, config);
  const limited = (request: Request) => gate(request, { principal: null }, false);
  const notFound = (request: Request, detail: string) => problemResponse(request, problem(config.siteUrl, 'not-found', detail));
  const impressions = new BadgeImpressionCounter(deps.sql, site.id, (err) => log.warn({ err }, 'badge impressions not recorded'));
  deps.atStop?.(() => impressions.close());

  return new Elysia({ name: 'badges' }).get('/badges/:slug/:file', async ({ request, params }) => {
    // PostgreSQL cannot hold U+0000; such a slug is bad input, not a query to run.
    if (/%00/.test(request.url)) return problemResponse(request, problem(config.siteUrl, 'bad-request', 'The URL contains the NUL character (%00).'));
    const limit = await limited(request);
    if (limit.refused) return limit.refused;
    try {
      const { choice, issues } = readQuery(new URL(request.url));
      if (issues.length) {
        const detail = `Invalid input: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`;
        return problemResponse(request, problem(config.siteUrl, 'validation', detail, { errors: issues }));
      }
      const slug = params.slug;
      const kind = params.file.endsWith('.svg') ? params.file.slice(0, -4) : '';
      if (!SLUG.test(slug) || !KIND_PATTERN.test(kind)) return notFound(request, `No badge image ${slug}/${params.file}.`);

      const key = `badge-svg:${slug}:${kind}:${choice.shape}:${choice.mode}:${choice.size}`;
      // Negative cache: an unknown slug is remembered like an image (same TTL, dropped by the next
      // write through the cache generation), so made-up slugs do not reach the database each time.
      const missingKey = `badge-missing:${slug}`;
      if (await cache.get(missingKey)) return notFound(request, `No listing with slug "${slug}" on this site.`);
      // Through the public-read pipeline (cache, single flight, ETag and 304).
      const image = await readThrough(
        deps,
        key,
        () => request.signal,
        async (sql) => {
          const gen = cache.generation;
          const listing = await listingBadges(sql, site.id, slug);
          if (!listing) {
            if (gen === cache.generation) await cache.set(missingKey, { body: '', etag: '' });
            return { status: 404, body: `No listing with slug "${slug}" on this site.` };
          }
          const row = listing.badges.find((b) => b.kind === kind);
          if (!row) return { status: 404, body: `The listing "${slug}" has no ${kind} badge.` };
          return { body: renderBadgeSvg(describeBadge(row, listing.name, site.name).art, choice.shape, choice.mode, choice.size) };
        },
      );
      if (image.status === 404) return notFound(request, image.body);
      // Every badge served is an impression for its listing's statistics (a revalidation too: the badge was shown).
      impressions.add(slug, referringHost(request.headers.get('referer')));
      return answerRead(
        request,
        image,
        {
          'content-type': 'image/svg+xml; charset=utf-8',
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'cross-origin',
          // Opened directly, an SVG is a document: it needs no script or outside content.
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          ...limit.headers,
        },
        CACHE_CONTROL,
      );
    } catch (err) {
      const gone = abandonedAnswer(err, limit.headers);
      if (gone) return gone;
      log.error({ err }, 'badge image failed');
      return problemResponse(request, problem(config.siteUrl, 'internal', 'An unexpected error occurred.'));
    }
  });
}

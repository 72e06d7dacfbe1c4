// Is our badge on a homepage? A link to the listing's profile around one of its badge images
// (any kind, shape, mode or size get_badges offers), visible to a visitor. Visibility is judged
// from the markup: hidden attributes, aria-hidden, inline display:none / visibility:hidden /
// opacity:0 / zero size, and invisible containers (template, noscript, head). Stylesheet rules
// are not evaluated.
import type * as cheerio from 'cheerio';

export type BadgeVerdict = { found: true } | { found: false; reason: 'badge_not_found' | 'badge_hidden' };

const INVISIBLE_TAGS = new Set(['template', 'noscript', 'head', 'script', 'style', 'iframe', 'object']);
const HIDDEN_STYLE =
  /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*(hidden|collapse)|opacity\s*:\s*0(\.0+)?\s*(!important)?\s*(;|$)|(width|height)\s*:\s*0(px)?\s*(!important)?\s*(;|$))/i;

const norm = (u: string): string | null => {
  try {
    const url = new URL(u);
    return `${url.protocol}//${url.host.toLowerCase()}${decodeURIComponent(url.pathname).replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
};

// cheerio is loaded on the first check: it and its parsers are about 25 MB of an edge's memory.
export async function findBadge(html: string, siteUrl: string, slug: string): Promise<BadgeVerdict> {
  const $ = (await import('cheerio')).load(html);
  // Content of these never renders (a template's children sit in a fragment no parent walk reaches).
  $([...INVISIBLE_TAGS].join(', ')).remove();
  const profile = norm(`${siteUrl}/listings/${slug}`);
  const images = `${siteUrl}/badges/${encodeURIComponent(slug)}/`.toLowerCase();
  let sawHidden = false;
  for (const a of $('a[href]').toArray()) {
    if (norm($(a).attr('href') ?? '') !== profile) continue;
    const imgs = $(a)
      .find('img[src], source[srcset]')
      .toArray()
      .filter((el) => ($(el).attr('src') ?? $(el).attr('srcset') ?? '').trim().toLowerCase().startsWith(images));
    if (!imgs.length) continue;
    const img = imgs.find((el) => el.tagName.toLowerCase() === 'img') ?? imgs[0];
    if (visible($, img)) return { found: true };
    sawHidden = true;
  }
  return { found: false, reason: sawHidden ? 'badge_hidden' : 'badge_not_found' };
}

function visible($: cheerio.CheerioAPI, el: Parameters<cheerio.CheerioAPI>[0]): boolean {
  const zero = (v: string | undefined) => v !== undefined && /^\s*0+(px)?\s*$/.test(v);
  const img = $(el as never);
  if (zero(img.attr('width')) || zero(img.attr('height'))) return false;
  for (const node of [img.get(0), ...img.parents().toArray()]) {
    if (node?.type !== 'tag') continue;
    const n = $(node);
    if (INVISIBLE_TAGS.has(node.tagName.toLowerCase())) return false;
    if (n.attr('hidden') !== undefined || n.attr('aria-hidden')?.toLowerCase() === 'true') return false;
    if (HIDDEN_STYLE.test(n.attr('style') ?? '')) return false;
  }
  return true;
}

/**
 * What a homepage without a visible badge has instead, in words for its owner: the links it makes,
 * whether one goes to the profile, and the badge images it shows. `page` is the homepage's URL.
 */
export async function describeMiss(html: string, siteUrl: string, slug: string, page: string, reason: 'badge_not_found' | 'badge_hidden'): Promise<string> {
  const $ = (await import('cheerio')).load(html);
  $([...INVISIBLE_TAGS].join(', ')).remove();
  const profile = norm(`${siteUrl}/listings/${slug}`);
  const path = `/listings/${slug}`;
  const links = $('a[href]').toArray();
  const toProfile = links.filter((a) => norm($(a).attr('href') ?? '') === profile).length;
  if (reason === 'badge_hidden')
    return `our badge on ${page} links to ${path} but is hidden (hidden, aria-hidden, display:none, visibility:hidden, opacity:0 or zero size)`;
  if (toProfile)
    return `${page} links to ${path} ${toProfile === 1 ? 'once' : `${toProfile} times`}, but no link holds our badge image (${siteUrl}/badges/${slug}/...)`;
  const others = links.length;
  return `no link to ${path} on ${page}; found ${others} other ${others === 1 ? 'link' : 'links'}`;
}

// The badge kinds a listing may show, what each says, where its image lives and how to embed it.
// Which kinds a listing has is decided in SQL (sql/queries/badges.ts); this file only words them.
import type { BadgeRow } from '../../sql/queries/badges.ts';
import { escapeMarkup } from '../escape.ts';
import type { BadgeArt, Family, Mode, Shape, Size } from './svg.ts';

/** Kinds are words, or award-YYYY-MM-DD for an award (a listing can win in several weeks). */
export const KIND_PATTERN = /^(listed|launched|featured|verified|top-rated|award-\d{4}-\d{2}-\d{2})$/;

export const familyOf = (kind: string): Family => (kind.startsWith('award-') ? 'award' : (kind as Family));

export interface BadgeWords {
  label: string;
  alt: string;
  art: BadgeArt;
}

/** Label, alt text and the image's words for one badge of a listing. */
export function describeBadge(row: BadgeRow, listingName: string, siteName: string): BadgeWords {
  const family = familyOf(row.kind);
  const simple = (verb: string, caption: string, lead: string, extra: string | null = null): BadgeWords => {
    const label = `${lead} ${siteName}`;
    const alt = `${listingName} ${verb} ${siteName}${extra ? ` (${extra})` : ''}`;
    return { label, alt, art: { family, caption, lead, siteName, extra, title: alt } };
  };
  switch (family) {
    case 'launched':
      return simple('launched on', 'Launched on', 'Launched on');
    case 'featured':
      return simple('is featured on', 'Featured on', 'Featured on');
    case 'verified':
      return simple('is verified on', 'Verified on', 'Verified on');
    case 'top-rated': {
      const rating = `${Number(row.rating_avg).toFixed(1)} ★ · ${row.rating_count} reviews`;
      return simple('is top rated on', 'Top rated on', 'Top rated on', rating);
    }
    case 'award': {
      const label = `Launch of the Week #${row.rank}`;
      const extra = `Week of ${row.week}`;
      const alt = `${listingName} was Launch of the Week #${row.rank} on ${siteName}, week of ${row.week}`;
      return { label, alt, art: { family, caption: label, lead: `${label} on`, siteName, extra, title: alt, iconText: String(row.rank) } };
    }
    default:
      return simple('is listed on', 'Listed on', 'Listed on');
  }
}

export interface ImageOptions {
  shape: Shape;
  mode: Mode;
  size: Size;
}

/** The one URL form the image route serves (api/badges/mount.ts); parameters always explicit. */
export function badgeImageUrl(siteUrl: string, slug: string, kind: string, o: ImageOptions): string {
  return `${siteUrl}/badges/${encodeURIComponent(slug)}/${encodeURIComponent(kind)}.svg?shape=${o.shape}&mode=${o.mode}&size=${o.size}`;
}

export const profileUrl = (siteUrl: string, slug: string) => `${siteUrl}/listings/${encodeURIComponent(slug)}`;

/**
 * Embed code. With a dark URL (mode auto) a <picture> swaps in the dark image when the visitor's
 * system prefers dark; the <img> (light) is the fallback. Either way the badge links to the profile.
 */
export function embedHtml(o: { link: string; src: string; dark: string | null; alt: string; width: number; height: number }): string {
  const img = `<img src="${escapeMarkup(o.src)}" alt="${escapeMarkup(o.alt)}" width="${o.width}" height="${o.height}" style="border:0">`;
  const inner = o.dark ? `<picture><source media="(prefers-color-scheme: dark)" srcset="${escapeMarkup(o.dark)}">${img}</picture>` : img;
  return `<a href="${escapeMarkup(o.link)}" target="_blank" rel="noopener">${inner}</a>`;
}

/** Markdown for READMEs: no dark variant there, so the light (or chosen) image. */
export function embedMarkdown(o: { link: string; src: string; alt: string }): string {
  const alt = o.alt.replace(/[\\[\]]/g, (c) => `\\${c}`);
  return `[![${alt}](${o.src})](${o.link})`;
}

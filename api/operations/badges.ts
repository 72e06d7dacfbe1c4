import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Nullable, Slug } from '../registry/schemas.ts';
import { type ListingBadges, listingBadges, TOP_RATED_MIN_AVG, TOP_RATED_MIN_REVIEWS } from '../../sql/queries/badges.ts';
import { notFound } from '../../core/errors/index.ts';
import { badgeImageUrl, describeBadge, embedHtml, embedMarkdown, profileUrl } from '../badges/catalogue.ts';
import { badgeDimensions, SHAPES, SIZES, type Mode, type Shape, type Size } from '../badges/svg.ts';
import { badgesExamples } from './badges-examples.ts';

const oneOf = <T extends string>(values: readonly T[], dflt: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { default: dflt, description },
  );

const Badge = Type.Object({
  kind: Type.String({ description: 'listed, launched, featured, verified, top-rated, or award-YYYY-MM-DD (one per Launch of the Week award).' }),
  label: Type.String({ description: 'What the badge says, e.g. "Listed on <site>" or "Launch of the Week #1".' }),
  alt: Type.String({ description: 'Alt text for the image.' }),
  rank: Nullable(Type.Integer({ minimum: 1, maximum: 3, description: 'Award badges: the Launch of the Week rank.' })),
  week: Nullable(Type.String({ format: 'date', description: 'Award badges: the Monday of the award week.' })),
  svg_url: Type.String({ description: 'The SVG image in the requested shape, mode and size; for mode auto, the light image.' }),
  light_svg_url: Nullable(Type.String({ description: 'Mode auto only: the light image.' })),
  dark_svg_url: Nullable(Type.String({ description: 'Mode auto only: the dark image.' })),
  link_url: Type.String({ description: "The listing's profile page; the badge links there." }),
  width: Type.Integer({ description: 'Image width in CSS pixels.' }),
  height: Type.Integer({ description: 'Image height in CSS pixels.' }),
  html: Type.String({ description: 'Embed code: a link to the profile around the image (a <picture> switching light/dark for mode auto).' }),
  markdown: Type.String({ description: 'Markdown embed code (the light image for mode auto).' }),
});

const Badges = Type.Object({
  listing: Type.Object({ slug: Type.String(), name: Type.String(), status: Type.String(), profile_url: Type.String() }),
  shape: Type.String(),
  mode: Type.String(),
  size: Type.String(),
  items: Type.Array(Badge, { description: 'The badges this listing may show, "Listed on" first, awards newest week first.' }),
});

export const badgesOperations: Operation[] = [
  defineOperation({
    name: 'get_badges',
    examples: badgesExamples.get_badges,
    method: 'GET',
    path: '/listings/{slug}/badges',
    tag: 'Badges',
    scope: null,
    summary: 'Badges a listing may show, with embed code',
    description:
      'Returns the badges a listing may show on its website (Listed on, Launched on, Featured, Top rated, ...), each with HTML embed code and image URLs. A free listing needs one of these badges on its homepage before it goes live (see choose_free_listing).',
    notes: [
      'Every listing of this site except drafts has badges, whatever its status: a free listing awaiting_badge goes live once the "Listed on" badge is on its homepage, so it must be able to get that embed code.',
      'Which badges: `listed` always; `launched` when the listing is live; `featured` on the paid plan; `verified` when the listing has a verified claim (claim_listing, then verify_claim or the mailed link); ' +
        `\`top-rated\` when live with at least ${TOP_RATED_MIN_REVIEWS} genuine reviews (not the owner's, not flagged) averaging ${TOP_RATED_MIN_AVG} or more; ` +
        'one `award-YYYY-MM-DD` per Launch of the Week award, newest first.',
      'Images are served at `{site_url}/badges/{slug}/{kind}.svg?shape=&mode=light|dark&size=` (image/svg+xml, Cache-Control public for 5 minutes, ETag/304); the URLs returned here are exactly those. ' +
        'For mode auto, `svg_url` and `light_svg_url` are the light image and `dark_svg_url` the dark one, and `html` is a <picture> that switches on prefers-color-scheme; for light or dark both extra URLs are null.',
      'Sizes scale each shape: s 0.8x, m 1x, l 1.25x; `width` and `height` give the result.',
      'The image route defaults to standard, light, m when a parameter is left out and ignores parameters it does not know (so cache busters work); a bad shape, mode or size (auto is not an image) is a 400 naming the field; an unknown listing, a draft, or a kind the listing may not show is a 404. A malformed slug is a 404 here too: it names no listing.',
    ].join('\n\n'),
    params: Type.Object({ slug: Slug('The listing slug, e.g. relaydesk.') }, { additionalProperties: false }),
    query: Type.Object(
      {
        shape: Type.Optional(oneOf(SHAPES, 'standard', 'Badge shape.')),
        mode: Type.Optional(
          oneOf(['light', 'dark', 'auto'] as const, 'auto', "Colour mode; auto gives embed code that follows the visitor's light/dark preference."),
        ),
        size: Type.Optional(oneOf(SIZES, 'm', 'Badge size.')),
      },
      { additionalProperties: false },
    ),
    notFoundParams: ['slug'],
    output: Badges,
    handler: async ({ slug, shape = 'standard', mode = 'auto', size = 'm' }, { sql, site, config }) => {
      const listing = await listingBadges(sql, site.id, slug);
      if (!listing) throw notFound(`No listing with slug "${slug}" on this site.`);
      return badgesAnswer(listing, { shape, mode, size }, config.siteUrl, site.name);
    },
  }),
];

/** get_badges' answer for a listing's badge rows (the listing page shows the same, from its own read). */
export function badgesAnswer(
  listing: Pick<ListingBadges, 'slug' | 'name' | 'status' | 'badges'>,
  { shape, mode, size }: { shape: Shape; mode: Mode | 'auto'; size: Size },
  siteUrl: string,
  siteName: string,
) {
  const link = profileUrl(siteUrl, listing.slug);
  const { width, height } = badgeDimensions(shape, size);
  const url = (kind: string, m: Mode) => badgeImageUrl(siteUrl, listing.slug, kind, { shape, mode: m, size });
  const items = listing.badges.map((row) => {
    const words = describeBadge(row, listing.name, siteName);
    const src = url(row.kind, mode === 'dark' ? 'dark' : 'light'); // auto falls back to light
    const dark = mode === 'auto' ? url(row.kind, 'dark') : null;
    return {
      kind: row.kind,
      label: words.label,
      alt: words.alt,
      rank: row.rank,
      week: row.week,
      svg_url: src,
      light_svg_url: mode === 'auto' ? src : null,
      dark_svg_url: dark,
      link_url: link,
      width,
      height,
      html: embedHtml({ link, src, dark, alt: words.alt, width, height }),
      markdown: embedMarkdown({ link, src, alt: words.alt }),
    };
  });
  return { listing: { slug: listing.slug, name: listing.name, status: listing.status, profile_url: link }, shape, mode, size, items };
}

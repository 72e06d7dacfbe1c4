import { notFound } from '../../core/errors/index.ts';
import { badgesAnswer } from '../operations/badges.ts';
import { readOp, type PageDeps } from './data.ts';
import { alternativesOf, listingPagePartsOf } from './listing-data.ts';
import { breadcrumbs, Card, Cards, FaqSection, faqLd, Section, SocialList, StoryText } from './components.tsx';
import { day, safeHref } from './format.ts';
import { Actions, ReviewForm, ReviewList, type Personal } from './listing-community.tsx';
import { About, Badges, DomainRating, Media, Milestones, Rating } from './listing-sections.tsx';
import type { Rendered } from './rendered.ts';

export type { Personal };

export async function renderListing(
  deps: PageDeps,
  slug: string,
  personal: (listingId: number) => Promise<Personal | null>,
): Promise<Rendered & { listingId: number }> {
  // Every read at once: the profile as get_listing answers it (its latest_updates are the page's),
  // the alternatives as get_alternatives reads them, badges and reviews (listing-data.ts).
  const [l, alternatives, parts] = await Promise.all([
    readOp(deps, 'get_listing', { path: { slug } }),
    alternativesOf(deps, slug),
    listingPagePartsOf(deps, slug),
  ]);
  const p = await personal(l.id);
  // Taken down between the reads: the page of a listing that is not live is a 404, as get_listing's.
  if (!parts || !alternatives) throw notFound(`No live listing with slug "${slug}".`);
  const { reviews } = parts;
  const badges = badgesAnswer({ ...parts, status: 'live' }, { shape: 'standard', mode: 'auto', size: 'm' }, deps.config.siteUrl, deps.site.name);
  const updates = { items: l.latest_updates as { title: string; body: string; created_at: string }[] };
  const site = deps.config.siteUrl;
  const primary = l.categories.find((c: any) => c.primary) ?? l.categories[0];
  const trail: [string, string][] = [['/', 'Home']];
  if (primary?.parent) trail.push([`/categories/${primary.parent.slug}`, primary.parent.name]);
  if (primary) trail.push([`/categories/${primary.slug}`, primary.name]);
  trail.push([`/listings/${l.slug}`, l.name]);
  const crumbs = breadcrumbs(site, trail);
  const rating = l.community_rating;
  // Served from our own origin (the stored logo or an initials tile), never hot-linked from the site.
  const logo = `${site}/logos/${l.slug}/256.png`;
  const shareImage = `${site}/share/${l.slug}.png`;
  const app: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: l.name,
    url: `${site}/listings/${l.slug}`,
    description: l.short_description ?? l.tagline ?? undefined,
    applicationCategory: primary?.name ?? 'BusinessApplication',
    operatingSystem: 'Web',
    image: logo ?? undefined,
    sameAs: safeHref(l.url) ?? undefined,
  };
  // Only genuine reviews (not by the owner, not flagged) make the aggregate: the same numbers as community_rating.
  if (rating.count > 0 && rating.average !== null)
    app.aggregateRating = { '@type': 'AggregateRating', ratingValue: rating.average, ratingCount: rating.count, bestRating: 5, worstRating: 1 };
  const ld: object[] = [crumbs.ld, app];
  if (l.faqs.length) ld.push(faqLd(l.faqs));
  const firstAlternative = alternatives[0];

  const body = (
    <>
      {crumbs.nav}
      <article class="listing" data-slug={l.slug}>
        <header class="listing-head">
          <img class="logo" src={`/logos/${l.slug}/128.png`} alt="" width={64} height={64} />
          <div>
            <h1>{l.name}</h1>
            {l.tagline ? <p class="lede">{l.tagline}</p> : null}
            <p class="meta">
              {/* Through the counting redirect (get_listing_stats' clicks); the pixel counts the view. */}
              <a href={`/go/${l.slug}`} rel="nofollow noopener ugc">
                Visit {l.domain}
              </a>
              <img class="px" src={`/v/${l.slug}.gif`} alt="" width={1} height={1} />
              {l.launch_week ? (
                <>
                  {' '}
                  · launched week of <a href={`/launches/weeks/${l.launch_week}`}>{l.launch_week}</a>
                </>
              ) : null}
              {l.plan === 'paid' ? (
                <>
                  {' '}
                  · <span class="tag">Featured</span>
                </>
              ) : null}
            </p>
          </div>
        </header>
        <Actions slug={l.slug} p={p} votes={l.votes} follows={l.follows} />
        {p?.isOwner ? null : (
          <p class="meta">
            <a href={`/listings/${l.slug}/claim`}>Is this your product? Claim it</a>
          </p>
        )}
        {l.headline ? (
          <p>
            <strong>{l.headline}</strong>
          </p>
        ) : null}
        <About l={l} />
        {l.features.length ? (
          <Section id="features" title="Features">
            <ul>
              {l.features.map((f: string) => (
                <li>{f}</li>
              ))}
            </ul>
          </Section>
        ) : null}
        {l.usps.length ? (
          <Section id="usps" title="Why choose it">
            <ul>
              {l.usps.map((f: string) => (
                <li>{f}</li>
              ))}
            </ul>
          </Section>
        ) : null}
        <Section id="pricing" title="Pricing">
          <p>
            {l.pricing.model ? <strong>{l.pricing.model}</strong> : 'Not stated'}
            {l.pricing.summary ? `: ${l.pricing.summary}` : ''}
          </p>
        </Section>
        <Section id="categories" title="Categories">
          <ul class="chips">
            {l.categories.map((c: any) => (
              <li>
                <a href={`/categories/${c.slug}`}>{c.name}</a>
                {c.primary ? ' (primary)' : ''}
              </li>
            ))}
          </ul>
        </Section>
        {l.founders.length ? (
          <Section id="founders" title="Founders">
            <ul class="people">
              {l.founders.map((f: any) => (
                <li>
                  <a href={`/founders/${f.slug}`}>{f.name}</a>
                  {f.title ? (
                    <>
                      {' '}
                      <span class="meta">{f.title}</span>
                    </>
                  ) : null}{' '}
                  <SocialList socials={f.socials} />
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
        {Object.keys(l.socials).length ? (
          <Section id="socials" title="Elsewhere">
            <SocialList socials={l.socials} />
          </Section>
        ) : null}
        <Rating rating={rating} />
        <DomainRating dr={l.domain_rating} />
        {l.story ? (
          <Section id="story" title={l.story.title ?? 'Founder story'}>
            <StoryText story={l.story} />
          </Section>
        ) : null}
        {l.milestones ? (
          <Section id="milestones" title="Milestones">
            <Milestones items={l.milestones} />
          </Section>
        ) : null}
        {l.media ? (
          <Section id="media" title="Media">
            <Media items={l.media} name={l.name} />
          </Section>
        ) : null}
        <Section id="updates" title="Latest updates">
          {updates.items.length ? (
            <>
              <ol class="updates">
                {updates.items.map((u) => (
                  <li>
                    <h3>{u.title}</h3>
                    <p class="meta">
                      <time datetime={u.created_at}>{day(u.created_at)}</time>
                    </p>
                    <p class="text">{u.body}</p>
                  </li>
                ))}
              </ol>
              <p>
                <a href={`/feeds/listings/${l.slug}.xml`}>Updates feed</a>
              </p>
            </>
          ) : (
            <p class="empty">No updates yet.</p>
          )}
        </Section>
        <FaqSection faqs={l.faqs} />
        <Section id="reviews" title="Reviews">
          <ReviewForm slug={l.slug} p={p} />
          <ReviewList reviews={reviews} p={p} />
        </Section>
        <Badges items={badges.items} domain={l.domain ?? undefined} />
        <Section id="alternatives" title="Alternatives">
          <Cards empty="No alternatives yet.">
            {alternatives.map((a) => (
              <Card s={a} badge={a.approved ? 'Owner approved' : undefined} />
            ))}
          </Cards>
          {firstAlternative ? (
            <p>
              <a href={`/compare?a=${l.slug}&b=${firstAlternative.slug}`}>
                Compare {l.name} with {firstAlternative.name}
              </a>
            </p>
          ) : null}
        </Section>
      </article>
    </>
  );
  return {
    listingId: l.id,
    meta: {
      title: l.seo?.title ?? `${l.name}${l.tagline ? `: ${l.tagline}` : ''}`,
      description: l.seo?.description ?? l.short_description ?? l.tagline ?? `${l.name} on ${deps.site.name}.`,
      path: `/listings/${l.slug}`,
      ogType: 'website',
      image: shareImage,
      jsonLd: ld,
      feeds: [{ href: `/feeds/listings/${l.slug}.xml`, title: `${l.name} updates` }],
    },
    body,
  };
}

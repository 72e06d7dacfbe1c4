import { readOp, type PageDeps } from './data.ts';
import { breadcrumbs, card, cards, day, extLink, html, n, safeHref, Html, type Summary } from './layout.ts';
import { faqLd, faqSection, socialList, storyText, type Rendered } from './directory-pages.ts';
import { listingReviews, type PublicReview } from '../../sql/queries/reviews.ts';
import { latestUpdates } from '../../sql/queries/updates.ts';

/** The signed-in person's state on the listing, rendered per request and never cached. */
export interface Personal {
  email: string;
  csrf: Html;
  voted: boolean;
  following: boolean;
  votes: number;
  follows: number;
  review: { id: number; rating: number; body: string | null } | null;
  isOwner: boolean;
}

const stars = (r: number) => `${'★'.repeat(Math.round(r))}${'☆'.repeat(5 - Math.round(r))}`;

function actions(slug: string, p: Personal | null, votes: number, follows: number): Html {
  const path = `/listings/${slug}`;
  if (!p) {
    const signIn = `/sign-in?return_to=${encodeURIComponent(path)}`;
    return html`<div class="actions"><a class="button" href="${signIn}">Upvote <span class="count">${n(votes)}</span></a>
<a class="button secondary" href="${signIn}">Follow <span class="count">${n(follows)}</span></a><p class="meta">Sign in to vote, follow and review.</p></div>`;
  }
  const voteForm = p.isOwner
    ? html`<p class="meta">You own this listing, so you cannot vote for it. <span class="count">${n(p.votes)}</span> votes.</p>`
    : html`<form method="post" action="${path}/vote" data-action="vote">${p.csrf}<input type="hidden" name="do" value="${p.voted ? 'remove' : 'add'}">
<button type="submit" class="${p.voted ? 'on' : ''}" aria-pressed="${p.voted ? 'true' : 'false'}">${p.voted ? 'Voted' : 'Upvote'} <span class="count">${n(p.votes)}</span></button></form>`;
  return html`<div class="actions">${voteForm}
<form method="post" action="${path}/follow" data-action="follow">${p.csrf}<input type="hidden" name="do" value="${p.following ? 'remove' : 'add'}">
<button type="submit" class="secondary ${p.following ? 'on' : ''}" aria-pressed="${p.following ? 'true' : 'false'}">${p.following ? 'Following' : 'Follow'} <span class="count">${n(p.follows)}</span></button></form>
<p class="status" role="status" aria-live="polite"></p></div>`;
}

function reviewForm(slug: string, p: Personal | null): Html {
  if (!p) return html`<p><a href="/sign-in?return_to=${encodeURIComponent(`/listings/${slug}#reviews`)}">Sign in to write a review</a>.</p>`;
  const r = p.review;
  const radio = (v: number) =>
    html`<label class="inline"><input type="radio" name="rating" value="${v}" required ${r?.rating === v ? new Html('checked') : ''}> ${v}</label>`;
  return html`<form method="post" action="/listings/${slug}/review" class="review-form" data-action="review">${p.csrf}
<fieldset><legend>${r ? 'Edit your review' : 'Your review'}${p.isOwner ? ' (as the owner, your review does not count towards the rating)' : ''}</legend>
<div class="ratings">${[1, 2, 3, 4, 5].map(radio)}</div>
<label for="review-body">What do you think?</label><textarea id="review-body" name="body" maxlength="5000" rows="4">${r?.body ?? ''}</textarea>
<button type="submit">${r ? 'Save review' : 'Post review'}</button></fieldset><p class="status" role="status" aria-live="polite"></p></form>`;
}

function reviewList(reviews: PublicReview[], p: Personal | null): Html {
  if (!reviews.length) return html`<p class="empty">No reviews yet.</p>`;
  return html`<ol class="reviews">${reviews.map(
    (
      r,
    ) => html`<li id="review-${r.id}"><p><span class="stars" aria-label="${r.rating} out of 5">${stars(r.rating)}</span> by ${r.author}${r.by_owner ? html` <span class="tag">Owner, not counted</span>` : ''} · <time datetime="${r.updated_at}">${day(r.updated_at)}</time></p>
${r.body ? html`<p class="text">${r.body}</p>` : ''}${p ? html`<form method="post" action="/reviews/${r.id}/flag" class="flag" data-action="flag">${p.csrf}<button type="submit" class="link">Flag this review</button></form>` : ''}</li>`,
  )}</ol>`;
}

export async function renderListing(
  deps: PageDeps,
  slug: string,
  personal: (listingId: number) => Promise<Personal | null>,
): Promise<Rendered & { listingId: number }> {
  const l = await readOp(deps, 'get_listing', { path: { slug } });
  const [alternatives, badges, reviews, updates, p] = await Promise.all([
    readOp(deps, 'get_alternatives', { path: { slug }, query: { per_page: '6' } }),
    readOp(deps, 'get_badges', { path: { slug } }),
    listingReviews(deps.sql, l.id),
    latestUpdates(deps.sql, deps.site.id, 1, 5, slug),
    personal(l.id),
  ]);
  const site = deps.config.siteUrl;
  const primary = l.categories.find((c: any) => c.primary) ?? l.categories[0];
  const trail: [string, string][] = [['/', 'Home']];
  if (primary?.parent) trail.push([`/categories/${primary.parent.slug}`, primary.parent.name]);
  if (primary) trail.push([`/categories/${primary.slug}`, primary.name]);
  trail.push([`/listings/${l.slug}`, l.name]);
  const crumbs = breadcrumbs(site, trail);
  const rating = l.community_rating;
  const app: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: l.name,
    url: `${site}/listings/${l.slug}`,
    description: l.short_description ?? l.tagline ?? undefined,
    applicationCategory: primary?.name ?? 'BusinessApplication',
    operatingSystem: 'Web',
    image: safeHref(l.logo_url) ?? undefined,
    sameAs: safeHref(l.url) ?? undefined,
  };
  // Only genuine reviews (not by the owner, not flagged) make the aggregate: the same numbers as community_rating.
  if (rating.count > 0 && rating.average !== null)
    app.aggregateRating = { '@type': 'AggregateRating', ratingValue: rating.average, ratingCount: rating.count, bestRating: 5, worstRating: 1 };
  const ld: object[] = [crumbs.ld, app];
  if (l.faqs.length) ld.push(faqLd(l.faqs));
  const dr = l.domain_rating;
  const sec = (id: string, title: string, content: Html | string) => html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}</section>`;

  const body = html`${crumbs.nav}<article class="listing" data-slug="${l.slug}">
<header class="listing-head">${safeHref(l.logo_url) ? html`<img class="logo" src="${safeHref(l.logo_url)}" alt="" width="64" height="64">` : ''}
<div><h1>${l.name}</h1>${l.tagline ? html`<p class="lede">${l.tagline}</p>` : ''}
<p class="meta">${extLink(l.url, `Visit ${l.domain}`)}${l.launch_week ? html` · launched week of <a href="/launches/weeks/${l.launch_week}">${l.launch_week}</a>` : ''}${l.plan === 'paid' ? html` · <span class="tag">Featured</span>` : ''}</p></div></header>
${actions(l.slug, p, l.votes, l.follows)}
${l.headline ? html`<p><strong>${l.headline}</strong></p>` : ''}
${sec(
  'about',
  'About',
  html`${l.description ? html`<p class="text">${l.description}</p>` : l.short_description ? html`<p>${l.short_description}</p>` : html`<p class="empty">No description yet.</p>`}
${l.summary ? html`<p class="text">${l.summary}</p>` : ''}
<dl class="facts">${l.stage ? html`<dt>Stage</dt><dd>${l.stage}</dd>` : ''}${l.country ? html`<dt>Based in</dt><dd>${l.city ? `${l.city}, ` : ''}${l.country}</dd>` : ''}${l.founded_year ? html`<dt>Founded</dt><dd>${l.founded_year}</dd>` : ''}
<dt>Votes</dt><dd>${n(l.votes)}</dd><dt>Followers</dt><dd>${n(l.follows)}</dd><dt>Views</dt><dd>${n(l.views)}</dd></dl>`,
)}
${l.features.length ? sec('features', 'Features', html`<ul>${l.features.map((f: string) => html`<li>${f}</li>`)}</ul>`) : ''}
${l.usps.length ? sec('usps', 'Why choose it', html`<ul>${l.usps.map((f: string) => html`<li>${f}</li>`)}</ul>`) : ''}
${sec('pricing', 'Pricing', html`<p>${l.pricing.model ? html`<strong>${l.pricing.model}</strong>` : 'Not stated'}${l.pricing.summary ? html`: ${l.pricing.summary}` : ''}</p>`)}
${sec('categories', 'Categories', html`<ul class="chips">${l.categories.map((c: any) => html`<li><a href="/categories/${c.slug}">${c.name}</a>${c.primary ? ' (primary)' : ''}</li>`)}</ul>`)}
${l.founders.length ? sec('founders', 'Founders', html`<ul class="people">${l.founders.map((f: any) => html`<li><a href="/founders/${f.slug}">${f.name}</a>${f.title ? html` <span class="meta">${f.title}</span>` : ''} ${socialList(f.socials)}</li>`)}</ul>`) : ''}
${Object.keys(l.socials).length ? sec('socials', 'Elsewhere', socialList(l.socials)) : ''}
${sec(
  'rating',
  'Community rating',
  html`<p>${rating.count > 0 ? html`<span class="stars" aria-hidden="true">${stars(rating.average)}</span> <strong>${rating.average}</strong> out of 5 from ${n(rating.count)} genuine ${rating.count === 1 ? 'review' : 'reviews'}` : 'No genuine reviews yet.'}</p>
<p class="meta">Reviews by the owner and flagged reviews do not count.</p>`,
)}
${sec(
  'domain-rating',
  'Domain Rating',
  dr
    ? html`<p><strong>${dr.rating}</strong> / 100, measured ${dr.measured_on}${dr.trend === null ? '' : html` · trend <strong>${dr.trend >= 0 ? '+' : ''}${dr.trend}</strong> over four weeks`}</p>
${dr.history.length > 1 ? html`<ol class="history" aria-label="Domain Rating history">${dr.history.map((h: any) => html`<li><time datetime="${h.measured_on}">${h.measured_on}</time>: ${h.rating}</li>`)}</ol>` : ''}`
    : html`<p class="empty">Not measured yet.</p>`,
)}
${l.story ? sec('story', l.story.title ?? 'Founder story', storyText(l.story)) : ''}
${l.milestones ? sec('milestones', 'Milestones', l.milestones.length ? html`<ol class="milestones">${l.milestones.map((m: any) => html`<li><time datetime="${m.date}">${m.date}</time> <strong>${m.title}</strong>${m.description ? html`<p>${m.description}</p>` : ''}${m.url ? html` ${extLink(m.url, 'More')}` : ''}</li>`)}</ol>` : html`<p class="empty">No milestones yet.</p>`) : ''}
${l.media ? sec('media', 'Media', l.media.length ? html`<ul class="media">${l.media.map((m: any) => html`<li>${m.kind === 'image' && safeHref(m.url) ? html`<img src="${safeHref(m.url)}" alt="${m.caption ?? `${l.name} screenshot`}" loading="lazy">` : extLink(m.url, m.caption ?? 'Video')}${m.caption ? html`<p>${m.caption}</p>` : ''}</li>`)}</ul>` : html`<p class="empty">No media yet.</p>`) : ''}
${sec('updates', 'Latest updates', updates.items.length ? html`<ol class="updates">${updates.items.map((u) => html`<li><h3>${u.title}</h3><p class="meta"><time datetime="${u.created_at}">${day(u.created_at)}</time></p><p class="text">${u.body}</p></li>`)}</ol><p><a href="/feeds/listings/${l.slug}.xml">Updates feed</a></p>` : html`<p class="empty">No updates yet.</p>`)}
${l.faqs.length ? faqSection(l.faqs) : ''}
<section aria-labelledby="reviews"><h2 id="reviews">Reviews</h2>${reviewForm(l.slug, p)}${reviewList(reviews, p)}</section>
${sec(
  'badges',
  'Badges',
  html`<p>Show these on your site. Copy the embed code.</p><ul class="badges">${badges.items.map(
    (b: any, i: number) => html`<li><img src="${b.svg_url}" alt="${b.alt}" width="${b.width}" height="${b.height}" loading="lazy">
<label for="badge-${i}">Embed code: ${b.label}</label><textarea id="badge-${i}" readonly rows="3" class="embed">${b.html}</textarea><button type="button" class="copy" data-copy="badge-${i}" hidden>Copy</button></li>`,
  )}</ul>`,
)}
${sec(
  'alternatives',
  'Alternatives',
  html`${cards(
    alternatives.items.map((a: Summary & { approved: boolean }) => card(a, { badge: a.approved ? 'Owner approved' : undefined })),
    'No alternatives yet.',
  )}
${alternatives.items.length ? html`<p><a href="/compare?a=${l.slug}&amp;b=${alternatives.items[0].slug}">Compare ${l.name} with ${alternatives.items[0].name}</a></p>` : ''}`,
)}
</article>`;
  return {
    listingId: l.id,
    meta: {
      title: l.seo?.title ?? `${l.name}${l.tagline ? `: ${l.tagline}` : ''}`,
      description: l.seo?.description ?? l.short_description ?? l.tagline ?? `${l.name} on ${deps.site.name}.`,
      path: `/listings/${l.slug}`,
      ogType: 'website',
      image: safeHref(l.logo_url),
      jsonLd: ld,
      feeds: [{ href: `/feeds/listings/${l.slug}.xml`, title: `${l.name} updates` }],
    },
    body,
  };
}

// The read-only sections of the listing page, each from the listing as get_listing answers it.

import { ExtLink, Section } from './components.tsx';
import { n, safeHref } from './format.ts';
import { stars } from './listing-community.tsx';

export function About({ l }: { l: any }) {
  return (
    <Section id="about" title="About">
      {l.description ? <p class="text">{l.description}</p> : l.short_description ? <p>{l.short_description}</p> : <p class="empty">No description yet.</p>}
      {l.summary ? <p class="text">{l.summary}</p> : null}
      <dl class="facts">
        {l.stage ? (
          <>
            <dt>Stage</dt>
            <dd>{l.stage}</dd>
          </>
        ) : null}
        {l.country ? (
          <>
            <dt>Based in</dt>
            <dd>
              {l.city ? `${l.city}, ` : ''}
              {l.country}
            </dd>
          </>
        ) : null}
        {l.founded_year ? (
          <>
            <dt>Founded</dt>
            <dd>{l.founded_year}</dd>
          </>
        ) : null}
        <dt>Votes</dt>
        <dd>{n(l.votes)}</dd>
        <dt>Followers</dt>
        <dd>{n(l.follows)}</dd>
        <dt>Views</dt>
        <dd>{n(l.views)}</dd>
      </dl>
    </Section>
  );
}

export function Rating({ rating }: { rating: { count: number; average: number } }) {
  return (
    <Section id="rating" title="Community rating">
      <p>
        {rating.count > 0 ? (
          <>
            <span class="stars" aria-hidden="true">
              {stars(rating.average)}
            </span>{' '}
            <strong>{rating.average}</strong> out of 5 from {n(rating.count)} genuine {rating.count === 1 ? 'review' : 'reviews'}
          </>
        ) : (
          'No genuine reviews yet.'
        )}
      </p>
      <p class="meta">Owners cannot review their own listing; a review is hidden only after flags from several established accounts, or by the site team.</p>
    </Section>
  );
}

export function DomainRating({ dr }: { dr: any }) {
  return (
    <Section id="domain-rating" title="Domain Rating">
      {dr ? (
        <>
          <p>
            <strong>{dr.rating}</strong> / 100, measured {dr.measured_on}
            {dr.trend === null ? null : (
              <>
                {' '}
                · trend{' '}
                <strong>
                  {dr.trend >= 0 ? '+' : ''}
                  {dr.trend}
                </strong>{' '}
                over four weeks
              </>
            )}
          </p>
          {dr.history.length > 1 ? (
            <ol class="history" aria-label="Domain Rating history">
              {dr.history.map((h: any) => (
                <li>
                  <time datetime={h.measured_on}>{h.measured_on}</time>: {h.rating}
                </li>
              ))}
            </ol>
          ) : null}
        </>
      ) : (
        <p class="empty">Not measured yet.</p>
      )}
    </Section>
  );
}

export function Milestones({ items }: { items: any[] }) {
  if (!items.length) return <p class="empty">No milestones yet.</p>;
  return (
    <ol class="milestones">
      {items.map((m) => (
        <li>
          <time datetime={m.date}>{m.date}</time> <strong>{m.title}</strong>
          {m.description ? <p>{m.description}</p> : null}
          {m.url ? (
            <>
              {' '}
              <ExtLink url={m.url}>More</ExtLink>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function Media({ items, name }: { items: any[]; name: string }) {
  if (!items.length) return <p class="empty">No media yet.</p>;
  return (
    <ul class="media">
      {items.map((m) => {
        const src = m.kind === 'image' ? safeHref(m.url) : null;
        return (
          <li>
            {src ? <img src={src} alt={m.caption ?? `${name} screenshot`} loading="lazy" /> : <ExtLink url={m.url}>{m.caption ?? 'Video'}</ExtLink>}
            {m.caption ? <p>{m.caption}</p> : null}
          </li>
        );
      })}
    </ul>
  );
}

export function Badges({ items, domain }: { items: any[]; domain?: string }) {
  const verified = items.some((b) => b.kind === 'verified');
  return (
    <Section id="badges" title="Badges">
      {domain ? (
        <p id="owner-verification" class={verified ? 'notice' : 'empty'}>
          {verified
            ? `Owner verified: the owner of this listing proved control of ${domain} (DNS record, meta tag or file).`
            : `Owner not verified: the owner of this listing has not proved control of ${domain}.`}
        </p>
      ) : null}
      <p>Show these on your site. Copy the embed code.</p>
      <ul class="badges">
        {items.map((b, i) => (
          <li>
            <img src={b.svg_url} alt={b.alt} width={b.width} height={b.height} loading="lazy" />
            <label for={`badge-${i}`}>Embed code: {b.label}</label>
            <textarea id={`badge-${i}`} readOnly rows={3} class="embed">
              {b.html}
            </textarea>
            <button type="button" class="copy" data-copy={`badge-${i}`} hidden>
              Copy
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

// Pieces several public pages share: links, listing cards, the pager, breadcrumbs, FAQs, stories.

import type { ComponentChildren, VNode } from 'preact';
import type { ListingSummaryRow } from '../../sql/queries/summaries.ts';
import { count, safeHref } from './format.ts';

/** A listing summary as the list operations return it (one shape, defined with its query). */
export type Summary = ListingSummaryRow;

/** A link to someone else's site, or plain text when the URL is not http(s). */
export function ExtLink({ url, children }: { url: string | null | undefined; children: ComponentChildren }) {
  const href = safeHref(url);
  return href ? (
    <a href={href} rel="nofollow noopener ugc">
      {children}
    </a>
  ) : (
    children
  );
}

/** A titled section of a page, labelled by its heading. */
export function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** The hidden field that carries a person's CSRF token in each of their forms. */
export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="csrf" value={token} />;

/** One listing in a list: name linking to its page, tagline, category and a metric. */
export function Card({ s, rank, metric, badge }: { s: Summary; rank?: number | null; metric?: string; badge?: string }) {
  return (
    <li class="card">
      {rank ? <span class="rank">#{rank}</span> : null}
      {/* From our own origin: the stored logo, or the initials tile when there is none. */}
      <img class="card-logo" src={`/logos/${s.slug}/128.png`} alt="" width={40} height={40} loading="lazy" />
      <div class="card-body">
        <h3>
          <a href={`/listings/${s.slug}`}>{s.name}</a>
          {badge ? (
            <>
              {' '}
              <span class="tag">{badge}</span>
            </>
          ) : null}
        </h3>
        {s.tagline ? <p>{s.tagline}</p> : null}
        <p class="meta">
          {s.category ? (
            <>
              <a href={`/categories/${s.category.slug}`}>{s.category.name}</a> ·{' '}
            </>
          ) : null}
          {metric ?? count(s.votes, 'vote')}
        </p>
      </div>
    </li>
  );
}

/** A list of cards, or a sentence saying there is nothing to list. */
export function Cards({ children, empty = 'Nothing here yet.', ranked = true }: { children: VNode[]; empty?: string; ranked?: boolean }) {
  if (!children.length) return <p class="empty">{empty}</p>;
  // Upcoming launches are not a ranking: an unordered list, so no reader announces positions.
  return ranked ? <ol class="cards">{children}</ol> : <ul class="cards">{children}</ul>;
}

/** Previous/next page links for a paged list. */
export function Pager({ path, params = {}, page, hasMore }: { path: string; params?: Record<string, string>; page: number; hasMore: boolean }) {
  if (page <= 1 && !hasMore) return null;
  const link = (p: number) => {
    const q = new URLSearchParams(params);
    q.delete('page');
    if (p > 1) q.set('page', String(p));
    const s = q.toString();
    return `${path}${s ? `?${s}` : ''}`;
  };
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? (
        <a rel="prev" href={link(page - 1)}>
          Previous page
        </a>
      ) : null}
      <span>Page {page}</span>
      {hasMore ? (
        <a rel="next" href={link(page + 1)}>
          Next page
        </a>
      ) : null}
    </nav>
  );
}

/** The breadcrumb trail of a page, as navigation and as its BreadcrumbList JSON-LD. */
export function breadcrumbs(siteUrl: string, trail: [string, string][]): { nav: VNode; ld: object } {
  const nav = (
    <nav aria-label="Breadcrumb" class="crumbs">
      <ol>
        {trail.map(([href, name], i) => (
          <li>
            <a href={href} aria-current={i === trail.length - 1 ? 'page' : undefined}>
              {name}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map(([href, name], i) => ({ '@type': 'ListItem', position: i + 1, name, item: siteUrl + href })),
  };
  return { nav, ld };
}

type Faq = { question: string; answer: string };

export function faqLd(faqs: Faq[]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map((f) => ({ '@type': 'Question', name: f.question, acceptedAnswer: { '@type': 'Answer', text: f.answer } })),
  };
}

export function FaqSection({ faqs }: { faqs: Faq[] | undefined }) {
  if (!faqs?.length) return null;
  return (
    <Section id="faq" title="Questions">
      <dl class="faq">
        {faqs.map((f) => (
          <>
            <dt>{f.question}</dt>
            <dd>{f.answer}</dd>
          </>
        ))}
      </dl>
    </Section>
  );
}

const STORY_PARTS: [string, string][] = [
  ['story', 'Story'],
  ['why_started', 'Why we started'],
  ['problem', 'The problem'],
  ['journey', 'The journey'],
  ['challenges', 'Challenges'],
  ['achievements', 'Achievements'],
  ['lessons', 'Lessons'],
  ['whats_next', 'What is next'],
];

/** The parts of a founder story that were written, each under its own heading. */
export function StoryText({ story }: { story: Record<string, any> }) {
  return (
    <>
      {STORY_PARTS.filter(([k]) => story[k]).map(([k, label]) => (
        <>
          <h4>{label}</h4>
          <p class="text">{story[k]}</p>
        </>
      ))}
    </>
  );
}

export function SocialList({ socials }: { socials: Record<string, string> | undefined }) {
  const entries = Object.entries(socials ?? {});
  if (!entries.length) return null;
  return (
    <ul class="chips">
      {entries.map(([k, v]) => (
        <li>
          <ExtLink url={v}>{k}</ExtLink>
        </li>
      ))}
    </ul>
  );
}

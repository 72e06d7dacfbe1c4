// /me/listings: the maker's dashboard (each listing, its status and what happens next) and a page
// per listing: publishing (free queue, badge embed code, Check now), the profile, proposed changes,
// updates, milestones, the founder story and orders. Each form runs the API's own operation.
import { Elysia } from 'elysia';
import type { VNode } from 'preact';
import type { DomainError } from '../../../core/errors/index.ts';
import { EDITABLE_FIELDS, LIST_FIELDS } from '../../../core/listings/editable.ts';
import { freeQueueWeeks, ownerExtras } from '../../../core/listings/owner-extras.ts';
import { STORY_SECTIONS } from '../../../core/listings/story.ts';
import { moderationFeed, type VersionRow } from '../../../core/listings/versions.ts';
import { CsrfField } from '../../pages/components.tsx';
import { money } from '../../pages/format.ts';
import { field, redirect } from '../common.tsx';
import { makerPage, Problem, statusOf } from './maker-frame.tsx';
import { attempt, makerGet, makerPost, type MakerDeps, type MakerRequest } from './forms.tsx';
import { runOp } from './run-op.ts';

type Listing = any;

const LABELS: Record<string, string> = {
  tagline: 'Tagline',
  short_description: 'Short description',
  description: 'Description',
  pricing_model: 'Pricing model',
  pricing_summary: 'Pricing summary',
  country: 'Country (two letters)',
  city: 'City',
  contact_email: 'Contact e-mail',
  demo_video_url: 'Demo video URL',
  headline: 'Headline',
  summary: 'Summary',
  seo_title: 'SEO title',
  seo_description: 'SEO description',
  features: 'Features (one per line)',
  usps: 'What sets it apart (one per line)',
  keywords: 'Keywords (one per line)',
  founded_year: 'Founded (year)',
};
const STORY_LABELS: Record<string, string> = {
  title: 'Title',
  story: 'The story',
  why_started: 'Why we started',
  problem: 'The problem',
  journey: 'The journey',
  challenges: 'Challenges',
  achievements: 'Achievements',
  lessons: 'Lessons',
  whats_next: "What's next",
};
const isList = (f: string) => (LIST_FIELDS as readonly string[]).includes(f);
const LONG = new Set(['description', 'summary', 'short_description', 'pricing_summary', 'seo_description']);

/** What happens next, for a person (the API's next_step speaks to API clients). */
export function nextStepText(l: Listing): string {
  switch (l.status) {
    case 'draft':
      return l.status_reason === 'badge_missing_at_launch'
        ? 'Not published: the badge was missing when its week began. Place the badge and publish free again, or buy a launch.'
        : l.submitted
          ? 'Not published yet: publish it free (a launch week 6-8 weeks out) or buy a launch.'
          : 'Not published yet: buy a launch to publish it.';
    case 'awaiting_badge':
      return `Waiting for the badge on ${l.url}: launches the week of ${l.launch_week} once it is found.`;
    case 'scheduled':
      return `Launches the week of ${l.launch_week}. Keep the badge on your homepage until then.`;
    case 'live':
      return `Live${l.launched_at ? ` since ${String(l.launched_at).slice(0, 10)}` : ''}.`;
    default:
      return `Status: ${l.status}.`;
  }
}

const REASONS: Record<string, string> = {
  badge_not_checked: 'Not checked yet.',
  badge_not_found: 'The badge was not found on your homepage.',
  badge_hidden: 'The badge is on your homepage but hidden.',
  badge_removed: 'The badge was removed from your homepage.',
  site_unreachable: 'Your homepage could not be reached.',
  site_error: 'Your homepage answered with an error.',
  site_too_large: 'Your homepage is too large to read.',
  site_refused: 'Your homepage redirects to an address we do not read.',
  site_not_html: 'Your homepage is not a web page.',
};

function Publishing({ l, csrf, weeks }: { l: Listing; csrf: string; weeks: { week: string; free: number }[] }) {
  if (l.status === 'draft') {
    const open = weeks.filter((w) => w.free > 0);
    return (
      <section aria-labelledby="publish-h">
        <h2 id="publish-h">Publish</h2>
        {l.submitted && l.plan !== 'paid' ? (
          <>
            <p>Free: your listing joins the launch queue in the earliest week with room, then goes live that Monday once our badge is on your homepage.</p>
            <form method="post" action={`/me/listings/${l.id}/free`}>
              <CsrfField token={csrf} />
              {open.length ? (
                <fieldset>
                  <legend>Launch week</legend>
                  {open.map((w, i) => (
                    <label class="inline">
                      <input type="radio" name="week" value={w.week} checked={i === 0} /> Week of {w.week} ({w.free} {w.free === 1 ? 'slot' : 'slots'} free)
                    </label>
                  ))}
                </fieldset>
              ) : (
                <p class="empty">Every week of the free queue is full right now.</p>
              )}
              <button type="submit">Publish free</button>
            </form>
          </>
        ) : null}
        <p>
          Or launch in a week of your choice with a paid launch: see <a href="/pricing">pricing</a>.
        </p>
      </section>
    );
  }
  if (l.status !== 'awaiting_badge' && l.status !== 'scheduled') return null;
  return (
    <section aria-labelledby="badge-h">
      <h2 id="badge-h">Your badge</h2>
      <p>
        Put this badge on your homepage ({l.url}), visible and linking to your listing. It stays needed until your launch week begins, when it is checked once
        more.
      </p>
      {l.badge ? (
        <>
          <label for="embed">Embed code</label>
          <textarea id="embed" class="embed" readOnly rows={4}>
            {l.badge.html}
          </textarea>
        </>
      ) : null}
      <p>
        Last check: {l.badge_checked_at ? `${String(l.badge_checked_at).replace('T', ' ').slice(0, 16)} UTC` : 'not yet'}.{' '}
        {l.status === 'scheduled' ? 'The badge was found.' : (REASONS[l.status_reason] ?? '')}
      </p>
      {l.status_detail ? <p class="meta badge-detail">{l.status_detail}</p> : null}
      <form method="post" action={`/me/listings/${l.id}/check`}>
        <CsrfField token={csrf} />
        <button type="submit">Check now</button>
      </form>
    </section>
  );
}

function ProfileForm({ l, csrf, versions }: { l: Listing; csrf: string; versions: VersionRow[] }) {
  const f = l.fields;
  return (
    <section aria-labelledby="profile-h">
      <h2 id="profile-h">Profile</h2>
      <p>Edits publish at once and are kept in the listing's version history.</p>
      <form method="post" action={`/me/listings/${l.id}/profile`}>
        <CsrfField token={csrf} />
        {EDITABLE_FIELDS.map((name) => {
          const v = f[name];
          const text = Array.isArray(v) ? v.join('\n') : v === null || v === undefined ? '' : String(v);
          return (
            <div class="field">
              <label for={`p-${name}`}>{LABELS[name] ?? name}</label>
              {isList(name) || LONG.has(name) ? (
                <textarea id={`p-${name}`} name={name} rows={name === 'description' ? 8 : 3}>
                  {text}
                </textarea>
              ) : (
                <input type="text" id={`p-${name}`} name={name} value={text} />
              )}
            </div>
          );
        })}
        <button type="submit">Save profile</button>
      </form>
      <History versions={versions} />
    </section>
  );
}

/** The listing's version history: when, by whom, which parts, before and after. */
function History({ versions }: { versions: VersionRow[] }) {
  if (!versions.length) return null;
  const show = (v: unknown) =>
    Array.isArray(v) ? v.join(', ') : v === null || v === undefined ? '(empty)' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return (
    <details>
      <summary>History ({versions.length === 20 ? 'latest 20' : versions.length} edits)</summary>
      <ol class="history-list">
        {versions.map((v) => (
          <li>
            <time datetime={v.created_at.toISOString()}>{v.created_at.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>, {v.editor_email ?? 'someone'} (
            {v.operation}):
            <ul>
              {Object.keys(v.after).map((k) => (
                <li>
                  {LABELS[k] ?? k}: <del>{show(v.before[k])}</del> → <ins>{show(v.after[k])}</ins>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </details>
  );
}

function Proposals({ l, csrf }: { l: Listing; csrf: string }) {
  if (!l.proposed_changes.length && !l.vanished.length) return null;
  const show = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v ?? ''));
  return (
    <section aria-labelledby="proposals-h">
      <h2 id="proposals-h">Changes found on your website</h2>
      <ul>
        {l.proposed_changes.map((p: any) => (
          <li>
            <strong>{LABELS[p.field] ?? p.field}</strong>: your site now says <q>{show(p.value)}</q>; the listing says <q>{show(l.fields[p.field])}</q>.
            <form method="post" action={`/me/listings/${l.id}/proposal`} class="actions">
              <CsrfField token={csrf} />
              <input type="hidden" name="field" value={p.field} />
              <button type="submit" name="do" value="accept">
                Accept
              </button>
              <button type="submit" name="do" value="reject" class="secondary">
                Keep mine
              </button>
            </form>
          </li>
        ))}
        {l.vanished.map((v: any) => (
          <li>
            <strong>{LABELS[v.field] ?? v.field}</strong>: <q>{show(v.value)}</q> is no longer on your website. Edit the profile if it changed.
          </li>
        ))}
      </ul>
    </section>
  );
}

function Extras({ l, csrf, extras, orders }: { l: Listing; csrf: string; extras: Awaited<ReturnType<typeof ownerExtras>>; orders: any[] }) {
  return (
    <>
      <section aria-labelledby="updates-h">
        <h2 id="updates-h">Post an update</h2>
        <p>Followers get it by e-mail once the listing is live.</p>
        <form method="post" action={`/me/listings/${l.id}/updates`}>
          <CsrfField token={csrf} />
          <label for="u-title">Title</label>
          <input type="text" id="u-title" name="title" required maxLength={200} />
          <label for="u-body">What's new</label>
          <textarea id="u-body" name="body" required maxLength={5000} rows={4} />
          <button type="submit">Post update</button>
        </form>
      </section>
      <section aria-labelledby="milestones-h">
        <h2 id="milestones-h">Milestones</h2>
        {extras.milestones.length ? (
          <ul>
            {extras.milestones.map((m) => (
              <li>
                {m.date}: {m.title}
                <form method="post" action={`/me/listings/${l.id}/milestones/${m.id}/delete`} class="actions">
                  <CsrfField token={csrf} />
                  <button type="submit" class="link" aria-label={`Delete milestone ${m.title}`}>
                    Delete
                  </button>
                </form>
              </li>
            ))}
          </ul>
        ) : (
          <p class="empty">No milestones yet.</p>
        )}
        <form method="post" action={`/me/listings/${l.id}/milestones`}>
          <CsrfField token={csrf} />
          <label for="m-date">Date</label>
          <input type="date" id="m-date" name="date" required />
          <label for="m-title">Title</label>
          <input type="text" id="m-title" name="title" required maxLength={200} />
          <label for="m-url">Link (https, optional)</label>
          <input type="url" id="m-url" name="url" maxLength={500} />
          <button type="submit">Add milestone</button>
        </form>
      </section>
      <section aria-labelledby="story-h">
        <h2 id="story-h">Founder story</h2>
        <p class="meta">Shown on your profile where the story section is unlocked (a paid section) and the listing is live.</p>
        <form method="post" action={`/me/listings/${l.id}/story`}>
          <CsrfField token={csrf} />
          {STORY_SECTIONS.map((s) => (
            <div class="field">
              <label for={`s-${s}`}>{STORY_LABELS[s]}</label>
              {s === 'title' ? (
                <input type="text" id={`s-${s}`} name={s} value={extras.story[s] ?? ''} maxLength={200} />
              ) : (
                <textarea id={`s-${s}`} name={s} rows={3}>
                  {extras.story[s] ?? ''}
                </textarea>
              )}
            </div>
          ))}
          <button type="submit">Save story</button>
        </form>
      </section>
      <section aria-labelledby="orders-h">
        <h2 id="orders-h">Orders</h2>
        {orders.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr>
                  <td>{o.checkout_url ? <a href={new URL(o.checkout_url).pathname}>{o.number}</a> : o.number}</td>
                  <td>{o.status}</td>
                  <td>{money(o.total_cents, o.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="empty">No orders for this listing yet.</p>
        )}
        <p>
          <a href={`/me/order?listing=${l.id}`}>Order for this listing</a> (launches, featured placement, the billboard)
        </p>
      </section>
    </>
  );
}

const DONE = {
  queued: 'Queued for its launch week. Now place the badge.',
  profile: 'Profile saved.',
  saved: 'Saved.',
  update: 'Update posted.',
  milestone: 'Milestone added.',
  milestone_deleted: 'Milestone deleted.',
  story: 'Story saved.',
};

const linesOf = (s: string) =>
  s
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean);

export function listingPagesPlugin(deps: MakerDeps) {
  const { config } = deps;
  const none = { parse: 'none' } as const;

  const listingPage = async (ctx: MakerRequest, id: string, opts: { err?: DomainError | null; done?: string | null } = {}) => {
    const l = await runOp<Listing>(deps, ctx.user, 'get_my_listing', { path: { listing_id: id } });
    const owner = { sql: deps.sql, userId: ctx.user.userId, siteId: deps.site.id };
    const [extras, weeks, orders, versions] = await Promise.all([
      ownerExtras(owner, l.id),
      l.status === 'draft' ? freeQueueWeeks(deps.sql, deps.site.id) : Promise.resolve([]),
      runOp(deps, ctx.user, 'list_my_orders', { query: { per_page: '100' } }),
      moderationFeed(deps.sql, { listingId: l.id, limit: 20 }),
    ]);
    const mine = orders.items.filter((o: any) => o.lines.some((x: any) => x.listing_id === l.id));
    const body: VNode = (
      <>
        <h1>{l.name}</h1>
        <p class="lede">
          <span class="tag">{l.status.replace('_', ' ')}</span> {nextStepText(l)}
        </p>
        {l.status !== 'draft' ? (
          <p>
            <a href={`/listings/${l.slug}`}>{l.status === 'live' ? 'Your public page' : 'Your coming-soon page'}</a>
          </p>
        ) : null}
        {opts.err ? <Problem err={opts.err} /> : null}
        {opts.done ? (
          <p class="notice" role="status">
            {opts.done}
          </p>
        ) : null}
        <Publishing l={l} csrf={ctx.csrf} weeks={weeks} />
        <Proposals l={l} csrf={ctx.csrf} />
        <ProfileForm l={l} csrf={ctx.csrf} versions={versions} />
        <Extras l={l} csrf={ctx.csrf} extras={extras} orders={mine} />
      </>
    );
    return makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: l.name,
      path: `/me/listings/${l.id}`,
      status: opts.err ? statusOf(opts.err) : 200,
      headers: ctx.headers,
      body,
    });
  };

  /** A form on a listing's page: run the operation, then back to the page with a note, or the page with the error. */
  // The note after a form is named in the address by a key, never carried as text: a link cannot put words on this page.
  const listingForm = (path: string, run: (ctx: MakerRequest & { form: FormData }) => Promise<unknown>, done: keyof typeof DONE) =>
    makerPost(
      deps,
      (p) => `/me/listings/${p.id}`,
      async (ctx) => {
        const r = await attempt(() => run(ctx));
        if (r.err) return listingPage(ctx, ctx.params.id, { err: r.err });
        return redirect(config, `/me/listings/${ctx.params.id}?done=${encodeURIComponent(done)}${path}`);
      },
    );

  const id = (ctx: MakerRequest) => ({ listing_id: ctx.params.id });

  return new Elysia({ name: 'maker-listings' })
    .get(
      '/me',
      makerGet(deps, async () => redirect(config, '/me/listings')),
      none,
    )
    .get(
      '/me/listings',
      makerGet(deps, async (ctx) => {
        const out = await runOp(deps, ctx.user, 'list_my_listings', { query: { per_page: '100' } });
        return makerPage({
          config,
          siteName: deps.site.name,
          user: ctx.user,
          title: 'Your listings',
          path: '/me/listings',
          headers: ctx.headers,
          body: (
            <>
              <h1>Your listings</h1>
              <p>
                <a class="button" href="/submit">
                  Submit a product
                </a>{' '}
                <a href="/me/drafts">Your drafts</a>
              </p>
              {out.items.length ? (
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Listing</th>
                      <th scope="col">Status</th>
                      <th scope="col">What happens next</th>
                    </tr>
                  </thead>
                  <tbody>
                    {out.items.map((l: Listing) => (
                      <tr>
                        <td>
                          <a href={`/me/listings/${l.id}`}>{l.name}</a>
                        </td>
                        <td>{l.status.replace('_', ' ')}</td>
                        <td>
                          {nextStepText(l)}
                          {l.status === 'awaiting_badge' ? (
                            <form method="post" action={`/me/listings/${l.id}/check`}>
                              <CsrfField token={ctx.csrf} />
                              <button type="submit" class="secondary" aria-label={`Check now for the badge of ${l.name}`}>
                                Check now
                              </button>
                            </form>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p class="empty">No listings yet. Submit your product to start.</p>
              )}
            </>
          ),
        });
      }),
      none,
    )
    .get(
      '/me/listings/:id',
      makerGet(deps, (ctx) => {
        const key = new URL(ctx.request.url).searchParams.get('done') ?? '';
        return listingPage(ctx, ctx.params.id, { done: Object.hasOwn(DONE, key) ? DONE[key as keyof typeof DONE] : null });
      }),
      none,
    )
    .post(
      '/me/listings/:id/free',
      listingForm(
        '#badge-h',
        (ctx) => {
          const week = field(ctx.form, 'week');
          return runOp(deps, ctx.user, 'choose_free_listing', { path: id(ctx), body: week ? { week } : {} });
        },
        'queued',
      ),
      none,
    )
    .post(
      '/me/listings/:id/check',
      makerPost(
        deps,
        (p) => `/me/listings/${p.id}`,
        async (ctx) => {
          const r = await attempt(() => runOp(deps, ctx.user, 'check_badge_now', { path: id(ctx) }));
          if (r.err) return listingPage(ctx, ctx.params.id, { err: r.err });
          const found = r.ok.status === 'scheduled';
          return listingPage(ctx, ctx.params.id, {
            done: found ? `Badge found: scheduled for the week of ${r.ok.launch_week}.` : `Badge not found. ${r.ok.status_detail ?? ''}`.trim(),
          });
        },
      ),
      none,
    )
    .post(
      '/me/listings/:id/profile',
      listingForm(
        '#profile-h',
        (ctx) => {
          const fields: Record<string, unknown> = {};
          for (const name of EDITABLE_FIELDS) {
            if (!ctx.form.has(name)) continue;
            const v = field(ctx.form, name);
            if (isList(name)) fields[name] = linesOf(v);
            else if (name === 'founded_year') fields[name] = v.trim() === '' ? null : /^\d+$/.test(v.trim()) ? Number(v.trim()) : v;
            else fields[name] = v.trim();
          }
          return runOp(deps, ctx.user, 'update_my_listing', { path: id(ctx), body: { fields } });
        },
        'profile',
      ),
      none,
    )
    .post(
      '/me/listings/:id/proposal',
      listingForm(
        '#proposals-h',
        async (ctx) => {
          const l = await runOp<Listing>(deps, ctx.user, 'get_my_listing', { path: id(ctx) });
          const name = field(ctx.form, 'field');
          const p = l.proposed_changes.find((x: any) => x.field === name);
          // Sending the field settles the proposal: its value accepts it, the current value keeps yours.
          const value = p && field(ctx.form, 'do') === 'accept' ? p.value : (l.fields[name] ?? '');
          return runOp(deps, ctx.user, 'update_my_listing', { path: id(ctx), body: { fields: { [name]: value } } });
        },
        'saved',
      ),
      none,
    )
    .post(
      '/me/listings/:id/updates',
      listingForm(
        '#updates-h',
        (ctx) =>
          runOp(deps, ctx.user, 'post_listing_update', {
            path: id(ctx),
            body: { title: field(ctx.form, 'title').trim(), body: field(ctx.form, 'body').trim() },
          }),
        'update',
      ),
      none,
    )
    .post(
      '/me/listings/:id/milestones',
      listingForm(
        '#milestones-h',
        (ctx) => {
          const url = field(ctx.form, 'url').trim();
          return runOp(deps, ctx.user, 'add_milestone', {
            path: id(ctx),
            body: { date: field(ctx.form, 'date'), title: field(ctx.form, 'title').trim(), ...(url ? { url } : {}) },
          });
        },
        'milestone',
      ),
      none,
    )
    .post(
      '/me/listings/:id/milestones/:milestone/delete',
      listingForm(
        '#milestones-h',
        (ctx) => runOp(deps, ctx.user, 'delete_milestone', { path: { ...id(ctx), milestone_id: ctx.params.milestone } }),
        'milestone_deleted',
      ),
      none,
    )
    .post(
      '/me/listings/:id/story',
      listingForm(
        '#story-h',
        (ctx) => runOp(deps, ctx.user, 'set_founder_story', { path: id(ctx), body: Object.fromEntries(STORY_SECTIONS.map((s) => [s, field(ctx.form, s)])) }),
        'story',
      ),
      none,
    );
}

// /submit and /me/drafts: a product's address in one field, then its draft being read and written,
// edited in place, co-founders invited, and submitted. Each form runs the API's own operation.
import { Elysia } from 'elysia';
import type { DomainError } from '../../../core/errors/index.ts';
import { isListField, SOCIAL_PLATFORMS } from '../../../core/drafts/fields.ts';
import { CsrfField } from '../../pages/components.tsx';
import { redirect } from '../common.tsx';
import { field } from '../common.tsx';
import { makerPage, Problem, statusOf } from './maker-frame.tsx';
import { attempt, makerGet, makerPost, type MakerDeps, type MakerRequest } from './forms.tsx';
import { runOp } from './run-op.ts';
import { DraftBody, isBusy, progressText, type DraftJson } from './draft-view.tsx';

const SECTION_NAMES = new Set(['faqs', 'founders', 'company_socials', 'founder_socials', 'story', 'milestones']);

export function draftPagesPlugin(deps: MakerDeps) {
  const { config } = deps;
  const none = { parse: 'none' } as const;

  const submitForm = (ctx: MakerRequest, opts: { url?: string; err?: DomainError | null } = {}) =>
    makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: 'Submit a product',
      path: '/submit',
      status: opts.err ? statusOf(opts.err) : 200,
      headers: ctx.headers,
      body: (
        <>
          <h1>Submit a product</h1>
          <p>
            Give us your product's website. We read it (respecting robots.txt) and draft the whole profile from what it says, each value with the quote it came
            from. You check and edit the draft before anything is published; nothing is charged.
          </p>
          <Problem err={opts.err ?? null} />
          <form method="post" action="/submit">
            <CsrfField token={ctx.csrf} />
            <label for="url">Website address</label>
            <input type="url" id="url" name="url" required maxLength={2048} placeholder="https://example.com" value={opts.url ?? ''} autocomplete="url" />
            <button type="submit">Draft my listing</button>
          </form>
        </>
      ),
    });

  const draftPage = async (ctx: MakerRequest, id: string, opts: { err?: DomainError | null; done?: string | null } = {}) => {
    const d = await runOp<DraftJson>(deps, ctx.user, 'get_draft', { path: { id } });
    return makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: `Draft of ${d.domain}`,
      path: `/me/drafts/${d.id}`,
      status: opts.err ? statusOf(opts.err) : 200,
      headers: ctx.headers,
      body: <DraftBody d={d} csrf={ctx.csrf} error={opts.err ? <Problem err={opts.err} /> : null} done={opts.done} />,
    });
  };

  const back = (p: Record<string, string>) => `/me/drafts/${p.id}`;

  return new Elysia({ name: 'maker-drafts' })
    .get(
      '/submit',
      makerGet(deps, async (ctx) => submitForm(ctx, { url: new URL(ctx.request.url).searchParams.get('url')?.slice(0, 2048) ?? '' })),
      none,
    )
    .post(
      '/submit',
      makerPost(
        deps,
        () => '/submit',
        async (ctx) => {
          const url = field(ctx.form, 'url').trim();
          const r = await attempt(() => runOp<DraftJson>(deps, ctx.user, 'submit_listing', { body: { url } }));
          if (r.err) return submitForm(ctx, { url: url.slice(0, 2048), err: r.err });
          return redirect(config, `/me/drafts/${r.ok.id}`);
        },
      ),
      none,
    )
    .get(
      '/me/drafts',
      makerGet(deps, async (ctx) => {
        const out = await runOp(deps, ctx.user, 'list_my_drafts', { query: { per_page: '100' } });
        return makerPage({
          config,
          siteName: deps.site.name,
          user: ctx.user,
          title: 'Your drafts',
          path: '/me/drafts',
          headers: ctx.headers,
          body: (
            <>
              <h1>Your drafts</h1>
              {out.items.length ? (
                <ul>
                  {out.items.map((d: any) => (
                    <li>
                      <a href={`/me/drafts/${d.id}`}>{d.name ?? d.domain}</a> · {d.status} · {d.completeness}% complete
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="empty">
                  No drafts yet. <a href="/submit">Submit a product</a>.
                </p>
              )}
            </>
          ),
        });
      }),
      none,
    )
    .get(
      '/me/drafts/:id',
      makerGet(deps, (ctx) => draftPage(ctx, ctx.params.id)),
      none,
    )
    .get(
      '/me/drafts/:id/progress',
      makerGet(deps, async (ctx) => {
        const d = await runOp<DraftJson>(deps, ctx.user, 'get_draft', { path: { id: ctx.params.id } });
        return Response.json(
          { status: d.status, busy: isBusy(d), text: progressText(d), pages: d.crawl.pages.length },
          { headers: { 'cache-control': 'no-store' } },
        );
      }),
      none,
    )
    .post(
      '/me/drafts/:id/field',
      makerPost(deps, back, async (ctx) => {
        const id = ctx.params.id;
        const name = field(ctx.form, 'field');
        const action = field(ctx.form, 'do');
        const value = field(ctx.form, 'value');
        let body: Record<string, unknown>;
        if (action === 'lock') body = { lock_fields: [name] };
        else if (action === 'regenerate') body = { regenerate: [name] };
        else if (action === 'restore') body = { restore: [name] };
        else if (SECTION_NAMES.has(name))
          body = {}; // sections are not typed on this page
        else
          body = {
            fields: {
              [name]: isListField(name)
                ? value
                    .split(/\r?\n/)
                    .map((s) => s.trim())
                    .filter(Boolean)
                : value,
            },
          };
        const r = await attempt(() => runOp<DraftJson>(deps, ctx.user, 'update_draft', { path: { id }, body }));
        if (r.err) return draftPage(ctx, id, { err: r.err });
        return redirect(config, `/me/drafts/${id}#field-${encodeURIComponent(name)}`);
      }),
      none,
    )
    .post(
      '/me/drafts/:id/socials',
      makerPost(deps, back, async (ctx) => {
        const id = ctx.params.id;
        // update_draft replaces the section: platforms left empty are removed, all empty deletes it.
        const links = Object.fromEntries(SOCIAL_PLATFORMS.map((p) => [p, field(ctx.form, p).trim()]).filter(([, v]) => v));
        const r = await attempt(() => runOp<DraftJson>(deps, ctx.user, 'update_draft', { path: { id }, body: { company_socials: links } }));
        if (r.err) return draftPage(ctx, id, { err: r.err });
        return redirect(config, `/me/drafts/${id}#s-company_socials`);
      }),
      none,
    )
    .post(
      '/me/drafts/:id/invite',
      makerPost(deps, back, async (ctx) => {
        const id = ctx.params.id;
        const email = field(ctx.form, 'email').trim();
        const r = await attempt(() => runOp(deps, ctx.user, 'invite_cofounder', { path: { id }, body: { email } }));
        if (r.err) return draftPage(ctx, id, { err: r.err });
        return draftPage(ctx, id, { done: `Invitation sent to ${email}.` });
      }),
      none,
    )
    .post(
      '/me/drafts/:id/submit',
      makerPost(deps, back, async (ctx) => {
        const id = ctx.params.id;
        const r = await attempt(() => runOp(deps, ctx.user, 'submit_draft', { path: { id } }));
        if (r.err) return draftPage(ctx, id, { err: r.err });
        return redirect(config, `/me/listings/${r.ok.listing_id}`);
      }),
      none,
    );
}

// Claiming a listing from its page: choose how to prove the website is yours, copy the exact
// record, tag or file, press Verify, and read the precise reason when it fails. The forms run
// claim_listing and verify_claim, the API's own operations.
import { Elysia } from 'elysia';
import { DomainError } from '../../../core/errors/index.ts';
import { CLAIM_METHODS } from '../../../core/claims/instructions.ts';
import { CsrfField } from '../../pages/components.tsx';
import { field, redirect } from '../common.tsx';
import { makerPage, Problem, statusOf } from './maker-frame.tsx';
import { attempt, makerGet, makerPost, type MakerDeps, type MakerRequest } from './forms.tsx';
import { runOp } from './run-op.ts';

const METHOD_LABELS: Record<string, string> = {
  dns: 'DNS: add a TXT record to your domain',
  meta: 'Meta tag: paste a tag into your homepage',
  file: 'File: publish a small text file on your site',
  email: 'E-mail: get a link at an address on your domain',
};

const REASONS: Record<string, string> = {
  dns_record_not_found: 'The TXT record was not found.',
  dns_record_mismatch: 'TXT records exist, but none holds the value.',
  dns_unavailable: 'DNS could not be asked.',
  meta_tag_not_found: 'The meta tag was not found on your homepage.',
  file_not_found: 'The file was not found.',
  file_mismatch: 'The file exists but does not hold the value.',
  site_unreachable: 'Your site could not be reached.',
  site_error: 'Your site answered with an error.',
  site_too_large: 'The page is too large to read.',
  site_not_html: 'The page is not a web page.',
  site_refused: 'Your site redirects to an address we do not read.',
  email_link_not_opened: 'The mailed link has not been confirmed yet.',
};

/** A value to copy exactly: a read-only field (selectable without JavaScript) and a copy button for the page script. */
function Copy({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input type="text" id={id} value={value} readOnly class="embed" />
      <button type="button" class="copy secondary" data-copy={id} hidden>
        Copy
      </button>
    </div>
  );
}

export function claimPagesPlugin(deps: MakerDeps) {
  const { config } = deps;
  const none = { parse: 'none' } as const;

  const startPage = async (ctx: MakerRequest, slug: string, err: DomainError | null = null) => {
    const l = await runOp(deps, ctx.user, 'get_listing', { path: { slug } });
    return makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: `Claim ${l.name}`,
      path: `/listings/${l.slug}/claim`,
      status: err ? statusOf(err) : 200,
      headers: ctx.headers,
      body: (
        <>
          <h1>Claim {l.name}</h1>
          <p>Prove that you run {l.domain} and you become the owner of this listing: you edit it, post updates and see its orders. Choose how to prove it.</p>
          <Problem err={err} />
          <form method="post" action={`/listings/${l.slug}/claim`}>
            <CsrfField token={ctx.csrf} />
            <fieldset>
              <legend>Method</legend>
              {CLAIM_METHODS.map((m, i) => (
                <label class="inline">
                  <input type="radio" name="method" value={m} checked={i === 0} /> {METHOD_LABELS[m]}
                </label>
              ))}
            </fieldset>
            <label for="claim-email">Address at {l.domain} (e-mail method only)</label>
            <input type="email" id="claim-email" name="email" maxLength={254} autocomplete="email" />
            <button type="submit">Start claim</button>
          </form>
        </>
      ),
    });
  };

  const claimPage = async (ctx: MakerRequest, id: string, opts: { err?: DomainError | null; claim?: any } = {}) => {
    let c = opts.claim;
    if (!c) {
      const mine = await runOp(deps, ctx.user, 'list_my_claims', { query: { per_page: '100' } });
      c = mine.items.find((x: any) => String(x.id) === id);
      if (!c) throw new DomainError('not_found', `No claim ${id} of yours.`);
    }
    const i = c.instructions;
    return makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: `Claim of ${c.listing.name}`,
      path: `/me/claims/${c.id}`,
      status: opts.err ? statusOf(opts.err) : 200,
      headers: ctx.headers,
      body: (
        <>
          <h1>Claim of {c.listing.name}</h1>
          <Problem err={opts.err ?? null} />
          {c.status === 'verified' ? (
            <p class="notice" role="status">
              Verified: you own {c.listing.name}. <a href="/me/listings">Your listings</a>
            </p>
          ) : c.status === 'expired' ? (
            <p class="error">
              This claim expired. <a href={`/listings/${c.listing.slug}/claim`}>Start a new claim</a>.
            </p>
          ) : (
            <>
              <p>{i.summary.replace(/,? then call verify_claim\.$/, '.')}</p>
              {i.dns ? (
                <>
                  <Copy id="dns-name" label="TXT record name" value={i.dns.name} />
                  <Copy id="dns-value" label="TXT record value" value={i.dns.value} />
                </>
              ) : null}
              {i.meta ? <Copy id="meta-tag" label={`Tag for the <head> of ${i.meta.page}`} value={i.meta.tag} /> : null}
              {i.file ? (
                <>
                  <Copy id="file-url" label="File address" value={i.file.url} />
                  <Copy id="file-content" label="File content" value={i.file.content} />
                </>
              ) : null}
              {c.last_check ? (
                <div class="error" role="alert">
                  <p>Not verified yet: {REASONS[c.last_check.reason] ?? c.last_check.reason}</p>
                  {c.last_check.detail ? <p class="meta claim-detail">{c.last_check.detail}</p> : null}
                </div>
              ) : null}
              {c.method !== 'email' ? (
                <form method="post" action={`/me/claims/${c.id}/verify`}>
                  <CsrfField token={ctx.csrf} />
                  <button type="submit">Verify</button>
                </form>
              ) : null}
              <p class="meta">This claim expires {String(c.expires_at).slice(0, 10)}.</p>
            </>
          )}
        </>
      ),
    });
  };

  return new Elysia({ name: 'maker-claims' })
    .get(
      '/listings/:slug/claim',
      makerGet(deps, (ctx) => startPage(ctx, ctx.params.slug)),
      none,
    )
    .post(
      '/listings/:slug/claim',
      makerPost(
        deps,
        (p) => `/listings/${p.slug}/claim`,
        async (ctx) => {
          const method = field(ctx.form, 'method');
          const email = field(ctx.form, 'email').trim();
          const body = { slug: ctx.params.slug, method, ...(method === 'email' ? { email } : {}) };
          const r = await attempt(() => runOp(deps, ctx.user, 'claim_listing', { body }));
          if (r.err) return startPage(ctx, ctx.params.slug, r.err);
          return redirect(config, `/me/claims/${r.ok.id}`);
        },
      ),
      none,
    )
    .get(
      '/me/claims/:id',
      makerGet(deps, (ctx) => claimPage(ctx, ctx.params.id)),
      none,
    )
    .post(
      '/me/claims/:id/verify',
      makerPost(
        deps,
        (p) => `/me/claims/${p.id}`,
        async (ctx) => {
          const r = await attempt(() => runOp(deps, ctx.user, 'verify_claim', { path: { claim_id: ctx.params.id } }));
          if (r.err) return claimPage(ctx, ctx.params.id, { err: r.err });
          return claimPage(ctx, ctx.params.id, { claim: r.ok });
        },
      ),
      none,
    );
}

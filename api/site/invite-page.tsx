// The page a co-founder reaches from an invite_cofounder e-mail: a form for their own founder
// profile (name, role, bio) that adds them to the draft's founders (and to the listing once the
// draft was submitted). The single-use link itself is the proof: no account is needed; when the
// person is signed in, their account is linked to the founder profile.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { transaction } from '../../sql/db.ts';
import { currentUser } from '../auth/session.ts';
import { csrfToken } from '../auth/csrf.ts';
import { page } from './frame.tsx';
import { readCheckedForm, sitePage } from './common.tsx';
import { inviteByToken, markInviteAccepted } from '../../core/drafts/invites-store.ts';
import { contentOf, draftById, writeContent } from '../../core/drafts/store.ts';
import { setSection } from '../../core/drafts/model.ts';
import { syncListing } from '../../core/drafts/listing-sync.ts';

export const FOUNDERS_MAX = 6;
const LIMITS = { name: 160, title: 160, bio: 3000 } as const;

type Deps = Pick<AppDeps, 'sql' | 'config' | 'site'>;
interface Entered {
  name: string;
  title: string;
  bio: string;
}

const gone = (title: string, message: string, status = 410) =>
  page({
    title,
    status,
    body: (
      <>
        <h1>{title}</h1>
        <p>{message}</p>
      </>
    ),
  });

export function invitePage(deps: Deps) {
  const { sql, config } = deps;

  function form(
    request: Request,
    token: string,
    invite: { product: string; domain: string; inviter_email: string; email: string },
    opts: { entered?: Entered; errors?: string[]; status?: number; signedInAs?: string | null } = {},
  ): Response {
    const csrf = csrfToken(config, request);
    const e = opts.entered ?? { name: '', title: '', bio: '' };
    const body = (
      <>
        <h1>Add your founder profile to {invite.product}</h1>
        <p>
          {invite.inviter_email} invited {invite.email} as a co-founder of {invite.product} ({invite.domain}) on {deps.site.name}.
        </p>
        {opts.errors?.length ? (
          <div class="error">
            <ul>
              {opts.errors.map((m) => (
                <li>{m}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <form method="post" action={`/invites/${encodeURIComponent(token)}`}>
          <input type="hidden" name="csrf" value={csrf.token} />
          <label for="name">Your name</label>
          <input type="text" id="name" name="name" required maxLength={LIMITS.name} value={e.name} />
          <label for="title">Your role</label>
          <input type="text" id="title" name="title" maxLength={LIMITS.title} value={e.title} placeholder="Co-founder and CTO" />
          <label for="bio">A short bio</label>
          <textarea id="bio" name="bio" rows={6} maxLength={LIMITS.bio} style="width:100%">
            {e.bio}
          </textarea>
          <button type="submit">Add me as a founder</button>
        </form>
      </>
    );
    return page({
      title: `Add your founder profile to ${invite.product}`,
      body,
      status: opts.status,
      signedInAs: opts.signedInAs,
      headers: csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {},
    });
  }

  const unusable = (invite: { accepted: boolean; expired: boolean } | null): Response | null => {
    if (!invite) return gone('Invite not found', 'This invite link is not valid. Ask the person who invited you to send a new one.', 404);
    if (invite.accepted) return gone('Invite already used', 'This invite link has been used already: the founder profile was added.');
    if (invite.expired) return gone('Invite expired', 'This invite link has expired. Ask the person who invited you to send a new one.');
    return null;
  };

  return {
    async show(request: Request, token: string): Promise<Response> {
      const invite = await inviteByToken(sql, token);
      const refusal = unusable(invite);
      if (refusal) return refusal;
      const user = await currentUser(sql, config, request);
      return form(request, token, invite!, { signedInAs: user?.email ?? null });
    },

    async accept(request: Request, token: string): Promise<Response> {
      // Size cap, NUL and invalid Unicode, CSRF: the checks every form of the site passes.
      const read = await readCheckedForm(config, request);
      if ('response' in read) return read.response;
      const data = read.form;
      const text = (k: keyof Entered) => String(data.get(k) ?? '').trim();
      const entered: Entered = { name: text('name'), title: text('title'), bio: text('bio') };
      const errors: string[] = [];
      if (entered.name === '') errors.push('Your name is required.');
      for (const k of Object.keys(LIMITS) as (keyof Entered)[]) {
        if (entered[k].length > LIMITS[k]) errors.push(`${k} is at most ${LIMITS[k]} characters.`);
      }
      const user = await currentUser(sql, config, request);
      const outcome = await transaction(sql, async (t) => {
        const invite = await inviteByToken(t, token, { forUpdate: true });
        const refusal = unusable(invite);
        if (refusal) return refusal;
        if (errors.length) return form(request, token, invite!, { entered, errors, status: 400, signedInAs: user?.email ?? null });
        const draft = await draftById(t, invite!.draft_id, { forUpdate: true });
        if (!draft) return gone('Invite not found', 'The draft this invite was for no longer exists.', 404);
        const content = contentOf(draft);
        if (content.founders.value.length >= FOUNDERS_MAX) {
          return form(request, token, invite!, {
            entered,
            errors: [`${invite!.product} already lists ${FOUNDERS_MAX} founders, the most a listing has. Ask ${invite!.inviter_email} to make room.`],
            status: 409,
          });
        }
        const founder = {
          name: entered.name,
          title: entered.title || null,
          bio: entered.bio || null,
          evidence: [],
          invite_id: String(invite!.id),
          user_id: user?.userId ?? null,
        };
        setSection(content, 'founders', [...content.founders.value, founder]);
        // The invitee's own entry wins over a redraft of the founders that may be running.
        await writeContent(t, draft.id, content, { regenerating: draft.regenerating.filter((n) => n !== 'founders') });
        await markInviteAccepted(t, invite!.id, { name: founder.name, title: founder.title, bio: founder.bio }, user?.userId ?? null);
        if (draft.listing_id !== null) await syncListing(t, draft, content, new Set(['founders']));
        return page({
          title: 'Founder profile added',
          signedInAs: user?.email ?? null,
          body: (
            <>
              <h1>Thank you, {founder.name}</h1>
              <p class="notice">You are now listed as a founder of {invite!.product}.</p>
            </>
          ),
        });
      });
      return outcome;
    },
  };
}

/** Mounts GET and POST /invites/{token} (call from api/site/mount.ts). */
export function invitePagesPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'site' | 'log' | 'limiter'>) {
  const pages = invitePage(deps);
  return new Elysia({ name: 'site-invites' })
    .get(
      '/invites/:token',
      sitePage(deps, ({ request, params }) => pages.show(request, params.token)),
    )
    .post(
      '/invites/:token',
      sitePage(deps, ({ request, params }) => pages.accept(request, params.token)),
      { parse: 'none' },
    );
}

import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import type { SessionUser } from '../../core/auth/sessions.ts';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../../core/auth/api-keys.ts';
import { isScope, SCOPE_DESCRIPTIONS, SCOPES, type Scope } from '../../core/auth/scopes.ts';
import { page } from './frame.tsx';
import { csrfField, field, notFoundPage, readCheckedForm, redirect, requireUser, RevokeForm, sitePage, When, type SiteRequest } from './common.tsx';

const PATH = '/account/api-keys';
export const MAX_KEY_NAME = 100;
/** Live keys per account; more is a sign of a leak or a script, and revoking is one click. */
export const MAX_ACTIVE_KEYS = 50;

interface FormState {
  name: string;
  scopes: string[];
  error?: string;
}

/** Checks the create form; returns the key to make or the message to show. */
function validateKeyForm(name: string, scopes: string[]): { name: string; scopes: Scope[] } | { error: string } {
  const trimmed = name.trim();
  if (!trimmed) return { error: 'Give the key a name, so you can tell it apart later.' };
  if ([...trimmed].length > MAX_KEY_NAME) return { error: `The name can be at most ${MAX_KEY_NAME} characters.` };
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return { error: 'The name cannot contain control characters.' };
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) return { error: `Unknown scope: ${unknown.join(', ')}.` };
  const chosen = SCOPES.filter((s) => scopes.includes(s));
  if (chosen.length === 0) return { error: 'Choose at least one scope.' };
  return { name: trimmed, scopes: [...chosen] };
}

/** GET/POST /account/api-keys and POST /account/api-keys/{id}/revoke. */
export function apiKeysPlugin(deps: Pick<AppDeps, 'config' | 'sql' | 'log' | 'limiter'>) {
  const { config, sql } = deps;

  function keysPage(
    request: Request,
    user: SessionUser,
    keys: ApiKeyRow[],
    opts: { status?: number; form?: FormState; created?: ApiKeyRow & { secret: string }; notice?: string },
  ): Response {
    const csrf = csrfField(config, request);
    const form = opts.form ?? { name: '', scopes: [] };
    const created = opts.created;
    return page({
      title: 'API keys',
      status: opts.status ?? 200,
      signedInAs: user.email,
      headers: csrf.headers,
      body: (
        <>
          <h1>API keys</h1>
          {created && (
            <section class="notice" id="new-key">
              <h2>Your new key "{created.name}"</h2>
              <p>
                <code id="new-key-secret">{created.secret}</code>
              </p>
              <p>
                <strong>Copy it now: it will not be shown again.</strong> We keep only a hash of it. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
              </p>
            </section>
          )}
          {opts.notice && (
            <p class="notice" role="status">
              {opts.notice}
            </p>
          )}
          <p>API keys let your scripts and AI agents call the REST API and the MCP server as you, within the scopes you choose.</p>
          {keys.length ? (
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Scopes</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th>Status</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr data-key-id={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{k.scopes.join(', ')}</td>
                    <td>
                      <When d={k.created_at} />
                    </td>
                    <td>
                      <When d={k.last_used_at} />
                    </td>
                    <td>
                      {k.revoked_at ? (
                        <>
                          revoked <When d={k.revoked_at} />
                        </>
                      ) : (
                        'active'
                      )}
                    </td>
                    <td>{!k.revoked_at && <RevokeForm action={`${PATH}/${k.id}/revoke`} name={k.name} csrf={csrf.field} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>You have no API keys yet.</p>
          )}
          <h2>Create a key</h2>
          {form.error && (
            <p class="error" role="alert">
              {form.error}
            </p>
          )}
          <form method="post" action={PATH}>
            {csrf.field}
            <label for="name">Name</label>
            <input type="text" id="name" name="name" required maxLength={MAX_KEY_NAME} value={form.name} />
            <fieldset>
              <legend>Scopes</legend>
              {SCOPES.map((s) => (
                <label>
                  <input type="checkbox" name="scopes" value={s} checked={form.scopes.includes(s)} /> <code>{s}</code>: {SCOPE_DESCRIPTIONS[s]}
                </label>
              ))}
            </fieldset>
            <button type="submit">Create key</button>
          </form>
        </>
      ),
    });
  }

  return new Elysia({ name: 'site-api-keys' })
    .get(
      PATH,
      sitePage(deps, async ({ request }: SiteRequest) => {
        const auth = await requireUser(deps, request, PATH);
        if ('response' in auth) return auth.response;
        const keys = await listApiKeys(sql, auth.user.userId);
        const revokedId = new URL(request.url).searchParams.get('revoked');
        const revoked = revokedId ? keys.find((k) => k.id === revokedId && k.revoked_at) : undefined;
        return keysPage(request, auth.user, keys, { notice: revoked ? `The key "${revoked.name}" is revoked: it no longer works.` : undefined });
      }),
      { parse: 'none' },
    )

    .post(
      PATH,
      sitePage(deps, async ({ request }: SiteRequest) => {
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const auth = await requireUser(deps, request, PATH);
        if ('response' in auth) return auth.response;
        const { form } = checked;
        const name = field(form, 'name');
        const scopes = form.getAll('scopes').filter((s): s is string => typeof s === 'string');
        const keys = await listApiKeys(sql, auth.user.userId);
        const valid = validateKeyForm(name, scopes);
        const refuse = (error: string) => keysPage(request, auth.user, keys, { status: 400, form: { name: name.slice(0, 400), scopes, error } });
        if ('error' in valid) return refuse(valid.error);
        if (keys.filter((k) => !k.revoked_at).length >= MAX_ACTIVE_KEYS)
          return refuse(`You have ${MAX_ACTIVE_KEYS} active keys; revoke one before creating another.`);
        const created = await createApiKey(sql, { userId: auth.user.userId, name: valid.name, scopes: valid.scopes });
        // The only response that ever carries the secret; page() marks it no-store.
        return keysPage(request, auth.user, [created, ...keys], { status: 201, created });
      }),
      { parse: 'none' },
    )

    .post(
      `${PATH}/:id/revoke`,
      sitePage(deps, async ({ request, params }: SiteRequest) => {
        const checked = await readCheckedForm(config, request);
        if ('response' in checked) return checked.response;
        const auth = await requireUser(deps, request, PATH);
        if ('response' in auth) return auth.response;
        // Another person's key, or none: the same 404, so ids reveal nothing.
        const key = (await listApiKeys(sql, auth.user.userId)).find((k) => k.id === params.id);
        if (!key) return notFoundPage(auth.user.email);
        if (!key.revoked_at) await revokeApiKey(sql, key.id, auth.user.userId);
        return redirect(config, `${PATH}?revoked=${encodeURIComponent(key.id)}`);
      }),
      { parse: 'none' },
    );
}

import type { Logger } from 'pino';
import type { Config } from '../../core/config.ts';
import type { Sql } from '../../sql/db.ts';
import type { SessionUser } from '../../core/auth/sessions.ts';
import { csrfToken, csrfValid } from '../auth/csrf.ts';
import { currentUser } from '../auth/session.ts';
import type { ComponentChildren, VNode } from 'preact';
import { page } from './frame.tsx';
import { addressKey, clientAddress, rateLimitHeaders, type RateLimiter } from '../http/rate-limit.ts';
import { BODY_LIMITS, textIssue } from '../../core/validation/limits.ts';
import { readBody, TOO_LARGE } from '../http/body.ts';
import { DomainError } from '../../core/errors/index.ts';
import { errorHeaders } from '../http/problem.ts';

/** What a site page handler receives from Elysia (routes are mounted with parse: 'none'). */
export interface SiteRequest {
  request: Request;
  params: Record<string, string>;
}
export type SiteHandler = (ctx: SiteRequest) => Promise<Response>;

/** Site forms are a few short fields; anything bigger is not one of ours. */
export const MAX_FORM_BYTES = 64 * 1024;

export interface PageDeps {
  log: Logger;
  config: Config;
  limiter: RateLimiter;
}

/**
 * Runs a page handler. Page views spend the client address's read budget (a 429 page past it);
 * a URL carrying U+0000 is a 400 (PostgreSQL cannot hold it); an unexpected failure is logged
 * and answered with an HTML error page.
 */
export function sitePage(deps: PageDeps, handler: SiteHandler): SiteHandler {
  const { log, config, limiter } = deps;
  return async (ctx) => {
    if (/%00/.test(ctx.request.url)) return messagePage({ status: 400, title: 'Bad request', message: 'The address contains the NUL character.' });
    if (ctx.request.method === 'GET') {
      const d = await limiter.consume('anonymous_read', addressKey(clientAddress(ctx.request, { trustProxy: config.trustProxy })));
      if (!d.allowed)
        return messagePage({
          status: 429,
          title: 'Too many requests',
          message: `Please wait ${d.resetSeconds} seconds and try again.`,
          headers: rateLimitHeaders(d),
        });
    }
    try {
      return await handler(ctx);
    } catch (err) {
      // PostgreSQL down (or too slow): a 503 to retry, as the API answers, not a 500.
      if (err instanceof DomainError && err.kind === 'unavailable') {
        return messagePage({
          status: 503,
          title: 'Temporarily unavailable',
          message: 'The site cannot answer right now. Please try again in a few seconds.',
          headers: errorHeaders(err),
        });
      }
      log.error({ err, path: new URL(ctx.request.url).pathname }, 'site page failed');
      return messagePage({ status: 500, title: 'Something went wrong', message: 'An unexpected error occurred. Please try again.' });
    }
  };
}

/** 303 See Other to a path on this site (after a form POST the browser follows it with GET). */
export function redirect(config: Config, path: string, headers: [string, string][] = []): Response {
  const h = new Headers([['location', `${config.siteUrl}${path}`], ['cache-control', 'no-store'], ...headers]);
  return new Response(null, { status: 303, headers: h });
}

export const signInPath = (returnTo: string) => `/sign-in?return_to=${encodeURIComponent(returnTo)}`;

/** The request's path and query, e.g. for return_to. */
export function requestPath(request: Request): string {
  const u = new URL(request.url);
  return u.pathname + u.search;
}

/** A page with a title, a message and optional links, e.g. errors and confirmations. */
export function messagePage(opts: {
  status: number;
  title: string;
  message: ComponentChildren;
  links?: { href: string; label: string }[];
  signedInAs?: string | null;
  headers?: Record<string, string>;
}): Response {
  const cls = opts.status >= 400 ? 'error' : 'notice';
  return page({
    title: opts.title,
    status: opts.status,
    signedInAs: opts.signedInAs,
    headers: opts.headers,
    body: (
      <>
        <h1>{opts.title}</h1>
        <p class={cls}>{opts.message}</p>
        {(opts.links ?? []).map((l) => (
          <p>
            <a href={l.href}>{l.label}</a>
          </p>
        ))}
      </>
    ),
  });
}

export const notFoundPage = (signedInAs?: string | null) =>
  messagePage({ status: 404, title: 'Not found', message: 'There is nothing here.', signedInAs, links: [{ href: '/account', label: 'Your account' }] });

/** A form's hidden CSRF field plus the Set-Cookie that goes with it (when the cookie is new). */
export function csrfField(config: Config, request: Request): { field: VNode; headers: Record<string, string> } {
  const { token, setCookie } = csrfToken(config, request);
  return { field: <input type="hidden" name="csrf" value={token} />, headers: setCookie ? { 'set-cookie': setCookie } : {} };
}

/**
 * Reads a POSTed form (urlencoded or multipart) within MAX_FORM_BYTES and checks its CSRF token
 * and origin. Returns the form, or the page to answer with (413, 400 or 403).
 */
export async function readCheckedForm(config: Config, request: Request): Promise<{ form: FormData } | { response: Response }> {
  const tooLarge = () => ({ response: messagePage({ status: 413, title: 'Form too large', message: 'That form was larger than any form on this site.' }) });
  const read = await readBody(request, MAX_FORM_BYTES);
  if (read === TOO_LARGE) return tooLarge();
  const buf = read ?? new Uint8Array();
  const type = request.headers.get('content-type') ?? '';
  let form: FormData;
  try {
    if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
      form = new FormData();
      for (const [k, v] of new URLSearchParams(new TextDecoder().decode(buf))) form.append(k, v);
    } else if (/^multipart\/form-data\b/i.test(type)) {
      form = await new Response(buf, { headers: { 'content-type': type } }).formData();
    } else {
      throw new Error('not a form');
    }
  } catch {
    return { response: messagePage({ status: 400, title: 'Bad request', message: 'The request was not a form submission.' }) };
  }
  // The same text rules as JSON bodies (core/validation/limits.ts): no NUL, no lone surrogate.
  let fields = 0;
  for (const [k, v] of form) {
    if (++fields > BODY_LIMITS.items) {
      return { response: messagePage({ status: 400, title: 'Bad request', message: 'That form had more fields than any form on this site.' }) };
    }
    const issue = textIssue(k) ?? (typeof v === 'string' ? textIssue(v) : null);
    if (issue) {
      const what = issue.includes('NUL') ? 'the NUL character' : 'invalid Unicode (a lone surrogate)';
      return { response: messagePage({ status: 400, title: 'Bad request', message: `The form contained ${what}, which no field accepts.` }) };
    }
  }
  if (!csrfValid(config, request, form)) {
    return {
      response: messagePage({
        status: 403,
        title: 'Form expired',
        message: 'This form could not be accepted: it expired or was sent from another site. Go back, reload the page and try again.',
        // A fresh CSRF cookie, so that reloading the form works even if the cookie was missing.
        headers: csrfField(config, request).headers,
      }),
    };
  }
  return { form };
}

/** A string field of a form ('' when missing or a file). */
export const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
};

/**
 * The signed-in person, or the redirect to the sign-in page that comes back to `returnTo`.
 * Reusable by any page that needs a person (e.g. OAuth consent).
 */
export async function requireUser(
  deps: { sql: Sql; config: Config },
  request: Request,
  returnTo = requestPath(request),
): Promise<{ user: SessionUser } | { response: Response }> {
  const user = await currentUser(deps.sql, deps.config, request);
  return user ? { user } : { response: redirect(deps.config, signInPath(returnTo)) };
}

/** "2026-01-05 14:03 UTC" inside a <time> element. */
export function When({ d, none = 'never' }: { d: Date | null; none?: string }) {
  if (!d) return <>{none}</>;
  return <time datetime={d.toISOString()}>{d.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>;
}

/** The one-button form that revokes a thing a person holds (an API key, a connected app). */
export function RevokeForm({ action, name, csrf }: { action: string; name: string; csrf: VNode }) {
  return (
    <form method="post" action={action}>
      {csrf}
      <button type="submit" aria-label={`Revoke ${name}`}>
        Revoke
      </button>
    </form>
  );
}

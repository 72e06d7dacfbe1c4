// Maker pages (submit, drafts, dashboard) wear the public site's frame: its header, navigation and
// stylesheet, with the signed-in person's links. They are personal: never cached, never indexed.
import type { ComponentChildren, VNode } from 'preact';
import type { Config } from '../../../core/config.ts';
import type { SessionUser } from '../../../core/auth/sessions.ts';
import type { DomainError } from '../../../core/errors/index.ts';
import { frame, pageHeaders } from '../../pages/layout.tsx';

export const MAKER_NAV: [string, string][] = [
  ['/submit', 'Submit a product'],
  ['/me/drafts', 'Drafts'],
  ['/me/listings', 'Your listings'],
  ['/me/interview', 'Founder interview'],
  ['/account', 'Account'],
];

/** A maker page as a response. */
export function makerPage(opts: {
  config: Config;
  siteName: string;
  user: SessionUser | null;
  title: string;
  path: string;
  body: VNode;
  status?: number;
  headers?: Record<string, string>;
}): Response {
  const html = frame(
    { title: opts.title, description: opts.title, path: opts.path, noindex: true, siteName: opts.siteName, siteUrl: opts.config.siteUrl },
    <>
      {opts.user ? (
        <nav aria-label="Maker" class="chips maker-nav">
          {MAKER_NAV.map(([href, label]) => (
            <a href={href} aria-current={opts.path === href ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
      ) : null}
      {opts.body}
    </>,
    opts.user ? { email: opts.user.email } : null,
  );
  return new Response(html, { status: opts.status ?? 200, headers: pageHeaders({ 'cache-control': 'no-store', ...opts.headers }) });
}

/** What went wrong with a form, in words: the operation's own message and, per field, what it wants. */
export function Problem({ err }: { err: DomainError | null }) {
  if (!err) return null;
  return (
    <div class="error" role="alert">
      <p>{err.message}</p>
      {err.fields.length > 1 ? (
        <ul>
          {err.fields.map((f) => (
            <li>
              <code>{f.field}</code>: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The HTTP status a DomainError answers with on a form (the same as the API's). */
export function statusOf(err: DomainError): number {
  switch (err.kind) {
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'rate_limited':
      return 429;
    case 'forbidden':
      return 403;
    default:
      return 400;
  }
}

export const Notice = ({ children }: { children: ComponentChildren }) => (
  <p class="notice" role="status">
    {children}
  </p>
);

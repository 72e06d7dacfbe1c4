// The few pages a person needs around their account (sign in, API keys, consent, checkout) share
// this frame: the public site's header, Preact rendered on the server, no scripts, every form
// working without JavaScript.

import type { ComponentChildren } from 'preact';
import { renderDocument } from '../view/document.tsx';
import { ASSETS } from '../pages/assets.ts';
import { MainNav } from '../pages/layout.tsx';

// The public site's stylesheet, inline (the CSP of these pages allows inline styles and no other
// source), plus what only these pages need.
const STYLE = `${ASSETS['site.css'].body}
input[type=text],input[type=email],input[type=url]{width:100%}table{margin:.5rem 0}
.notice{background:#eef6ee;border:1px solid #9c9;padding:.8rem}.error{background:#fbeeee;border:1px solid #c99;padding:.8rem}code{background:#f4f4f4;padding:.1rem .3rem;word-break:break-all}`;

/**
 * The document around a page's content: the public site's header and navigation, with the
 * signed-in person's links (account, listings, API keys), and the page in <main>.
 */
export function Frame(props: { title: string; signedInAs?: string | null; head?: ComponentChildren; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{props.title}</title>
        {/* Our own fixed stylesheet, not data. */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
        {props.head}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <MainNav path="" />
          <nav class="account" aria-label="Account">
            {props.signedInAs ? (
              <>
                <span class="who">Signed in as {props.signedInAs}</span> <a href="/account">Account</a> <a href="/me/listings">Your listings</a>{' '}
                <a href="/account/api-keys">API keys</a>
              </>
            ) : (
              <>
                <a href="/docs">API docs</a> <a href="/sign-in">Sign in</a>
              </>
            )}
          </nav>
        </header>
        <main id="main">{props.children}</main>
      </body>
    </html>
  );
}

/** Headers of every frame page: never cached, never framed (clickjacking of the consent page), no scripts. */
export const FRAME_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

/** A frame page as a response. */
export function page(opts: {
  title: string;
  body: ComponentChildren;
  signedInAs?: string | null;
  status?: number;
  headers?: Record<string, string>;
}): Response {
  const doc = renderDocument(
    <Frame title={opts.title} signedInAs={opts.signedInAs}>
      {opts.body}
    </Frame>,
  );
  return new Response(doc, { status: opts.status ?? 200, headers: { ...FRAME_HEADERS, ...opts.headers } });
}

// The few pages a person needs around their account (sign in, API keys, consent, checkout) share
// this frame: Preact rendered on the server, no scripts, every form working without JavaScript.

import type { ComponentChildren } from 'preact';
import { renderDocument } from '../view/document.tsx';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.6rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}input[type=text],input[type=email]{width:100%;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1rem;margin:.8rem .5rem 0 0;cursor:pointer}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
.notice{background:#eef6ee;border:1px solid #9c9;padding:.8rem}.error{background:#fbeeee;border:1px solid #c99;padding:.8rem}code{background:#f4f4f4;padding:.1rem .3rem;word-break:break-all}
nav{margin-bottom:1rem}nav a{margin-right:1rem}`;

/** The document around a page's content: title, stylesheet and the account navigation. */
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
        {props.signedInAs ? (
          <nav>
            <a href="/account">Account</a>
            <a href="/account/api-keys">API keys</a>
            <span>Signed in as {props.signedInAs}</span>
          </nav>
        ) : (
          <nav>
            <a href="/docs">API docs</a>
            <a href="/sign-in">Sign in</a>
          </nav>
        )}
        <main>{props.children}</main>
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

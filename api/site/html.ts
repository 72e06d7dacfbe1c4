// The few HTML pages a person needs (sign in, API keys, consent) share this frame. Plain
// server-rendered HTML with no scripts: every form works without JavaScript.

import { escapeMarkup } from '../escape.ts';

/** Tagged template that escapes every interpolated value unless it is already Html. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.value : escapeMarkup(x))).join('') : v instanceof Html ? v.value : escapeMarkup(v);
    out += part + strings[i + 1];
  });
  return new Html(out);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.6rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}input[type=text],input[type=email]{width:100%;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1rem;margin:.8rem .5rem 0 0;cursor:pointer}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
.notice{background:#eef6ee;border:1px solid #9c9;padding:.8rem}.error{background:#fbeeee;border:1px solid #c99;padding:.8rem}code{background:#f4f4f4;padding:.1rem .3rem;word-break:break-all}
nav{margin-bottom:1rem}nav a{margin-right:1rem}`;

export function page(opts: { title: string; body: Html; signedInAs?: string | null; status?: number; headers?: Record<string, string> }): Response {
  const nav = opts.signedInAs
    ? html`<nav><a href="/account">Account</a><a href="/account/api-keys">API keys</a><span>Signed in as ${opts.signedInAs}</span></nav>`
    : html`<nav><a href="/docs">API docs</a><a href="/sign-in">Sign in</a></nav>`;
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${opts.title}</title><style>${new Html(STYLE)}</style></head><body>${nav}<main>${opts.body}</main></body></html>`;
  return new Response(doc.value, {
    status: opts.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // Pages run no scripts and must not be framed (clickjacking of the consent page).
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      ...opts.headers,
    },
  });
}

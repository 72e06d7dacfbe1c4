// One page of an owner's website read for a check (badge, claim meta tag or file): every failure
// becomes a reason and a detail, never a throw, so a check against a site that is down, slow,
// huge or redirects somewhere private ends with a reason.
import { UnsafeUrlError, type SafeFetch } from './ssrf-fetch.ts';

export type PageFailure = 'site_unreachable' | 'site_refused' | 'site_error' | 'site_too_large' | 'site_not_html' | 'not_found';
export type PageRead = { ok: true; text: string } | { ok: false; reason: PageFailure; detail: string };

export async function readPage(fetcher: SafeFetch, url: string, opts: { html: boolean; sameHostOnly?: boolean }): Promise<PageRead> {
  try {
    const res = await fetcher(url, { accept: opts.html ? 'text/html,application/xhtml+xml' : 'text/plain,*/*', sameHostOnly: opts.sameHostOnly });
    if (res.status === 404 || res.status === 410) return { ok: false, reason: 'not_found', detail: `${url} answered HTTP ${res.status}` };
    if (res.status < 200 || res.status > 299) return { ok: false, reason: 'site_error', detail: `${url} answered HTTP ${res.status}` };
    const type = res.headers.get('content-type') ?? '';
    if (opts.html && type && !/html/i.test(type)) return { ok: false, reason: 'site_not_html', detail: `${url} is ${type.split(';')[0]}, not HTML` };
    return { ok: true, text: new TextDecoder().decode(res.body) };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    if (error instanceof UnsafeUrlError) {
      if (error.reason === 'too_large') return { ok: false, reason: 'site_too_large', detail: message };
      if (error.reason === 'address' || error.reason === 'scheme' || error.reason === 'credentials' || error.reason === 'redirects') {
        return { ok: false, reason: 'site_refused', detail: `refused: ${message}` };
      }
    }
    return { ok: false, reason: 'site_unreachable', detail: message };
  }
}

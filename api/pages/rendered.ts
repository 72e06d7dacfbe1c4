import type { VNode } from 'preact';
import type { PageDeps } from './data.ts';
import type { PageMeta } from './layout.tsx';

/** What a page renderer returns: its findability facts and its main content. */
export interface Rendered {
  meta: Omit<PageMeta, 'siteName' | 'siteUrl'>;
  body: VNode;
  status?: number;
}
export type Renderer = (deps: PageDeps, url: URL, params: Record<string, string>) => Promise<Rendered>;

/** The ?page= of a URL, 1 when missing or out of range. */
export const pageOf = (url: URL) => {
  const p = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(p) && p >= 1 && p <= 1000 ? p : 1;
};
export const withPage = (path: string, url: URL) => (pageOf(url) > 1 ? `${path}?page=${pageOf(url)}` : path);

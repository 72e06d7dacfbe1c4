// The evaluation's fixture sites served on loopback the way a web server would. Two sets: the
// tuning set (test/fixtures/eval-sites/<name>/), which the drafting rules were written against,
// and the held-out set (test/fixtures/eval-held-out/<name>/), written before the rules that
// read it and never tuned on: its figures say how drafts fare on sites nobody tuned for.
// Files map to paths: "index.html" is "/", "a__b.html" is "/a/b", other files keep their names.
// "{{OFFSITE}}" in a page becomes the URL of a second server standing for another website, so
// a crawl that follows an off-site link is caught by that server's log.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const EVAL_SETS = {
  tuning: join(import.meta.dir, '../fixtures/eval-sites'),
  'held-out': join(import.meta.dir, '../fixtures/eval-held-out'),
} as const;
export type EvalSet = keyof typeof EVAL_SETS;

export interface Truth {
  template: string;
  /** Exact fields: a drafted value must equal one of these (country as ISO code). */
  fields: Partial<Record<string, string | string[] | { contains: string[] }>>;
  /** List fields: each truth item should be drafted (recall); keywords match keywords or tags. */
  lists?: Partial<Record<'features' | 'usps' | 'keywords', string[]>>;
  /** Category names a careful editor may choose from the evaluation tree; [] when none fits.
   * Absent: categories are not scored. A drafted category outside the list is fabricated. */
  categories?: string[];
  /** Each founder's own profile links: a drafted founder's link must be one of theirs. */
  founder_socials?: Record<string, string[]>;
  faqs?: string[];
  founders?: string[];
  company_socials?: Record<string, string>;
  /** Words that must appear in no drafted value or quote: hidden text, other people, passing mentions. */
  traps: string[];
  /** Traps that are fabrication only as a fact (a field, founder, list item): long-form prose
   * (description, story) may repeat the site's own visible sentence that holds them. */
  fact_traps?: string[];
  /** What each trap or absence stands for (documentation only). */
  notes?: string[];
}

export interface EvalSite {
  name: string;
  set: EvalSet;
  files: Map<string, { body: string; type: string }>;
  robots: string;
  truth: Truth;
}

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', css: 'text/css', txt: 'text/plain', json: 'application/json' };

export function pathOf(file: string): string {
  if (file === 'index.html') return '/';
  const path = `/${file.replace(/__/g, '/')}`;
  return path.endsWith('.html') ? path.replace(/(\/index)?\.html$/, '') || '/' : path;
}

export function loadEvalSites(set: EvalSet = 'tuning'): EvalSite[] {
  const root = EVAL_SETS[set];
  return readdirSync(root)
    .filter((name) => statSync(join(root, name)).isDirectory())
    .sort()
    .map((name) => {
      const dir = join(root, name);
      const files = new Map<string, { body: string; type: string }>();
      for (const file of readdirSync(dir)) {
        if (file === 'truth.json') continue;
        const ext = file.split('.').pop() ?? '';
        files.set(pathOf(file), { body: readFileSync(join(dir, file), 'utf8'), type: TYPES[ext] ?? 'application/octet-stream' });
      }
      const truth = JSON.parse(readFileSync(join(dir, 'truth.json'), 'utf8')) as Truth;
      return { name, set, files, robots: files.get('/robots.txt')?.body ?? '', truth };
    });
}

export interface Served {
  url: string;
  hits: string[];
  stop(): void;
}

export function serveEvalSite(site: EvalSite, host: string, offsiteUrl: string): Served {
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(path);
      const file = site.files.get(path) ?? site.files.get(path.replace(/\/+$/, '')) ?? site.files.get(path.replace(/\.html$/, ''));
      if (file === undefined) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
      return new Response(file.body.replaceAll('{{OFFSITE}}', offsiteUrl), { headers: { 'content-type': file.type } });
    },
  });
  return { url: `http://${host}:${server.port}/`, hits, stop: () => server.stop(true) };
}

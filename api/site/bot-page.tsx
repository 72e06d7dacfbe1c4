import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { page } from './frame.tsx';

/** The contact page our crawler's user agent points at: who we are, what we fetch, how to opt out. */
export function botPagePlugin({ config }: Pick<AppDeps, 'config'>) {
  const token = config.crawlerUserAgent.split('/')[0];
  return new Elysia({ name: 'bot-page' }).get('/bot', () =>
    page({
      title: 'About our crawler',
      body: (
        <>
          <h1>About our crawler</h1>
          <p>
            Requests with the user agent <code>{config.crawlerUserAgent}</code> come from this directory ({config.siteUrl}).
          </p>
          <p>
            We fetch a site only when someone submits it for a listing (or a competitor comparison), and read at most about 25 public pages: the home page and
            pages that state facts about the product (about, pricing, FAQ, contact, team, blog). Each value we draft is quoted from those pages, and the owner
            reviews it before anything is published.
          </p>
          <p>
            We read <code>/robots.txt</code> first and obey it for the product token <code>{token}</code>, including <code>Crawl-delay</code>. To keep us out,
            add:
          </p>
          <pre>{`User-agent: ${token}\nDisallow: /`}</pre>
          <p>We never follow links to other sites, never fetch private network addresses, and cap the size and time of every fetch.</p>
        </>
      ),
    }),
  );
}

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import AxeBuilder from '@axe-core/playwright';
import { seedDemo } from '../../seeds/demo.ts';
import { launchBrowser, latestSignInLink, allowNewSignInLink, type Browser, type Page } from '../browser.ts';
import { startTestApp, type TestApp } from '../harness.ts';

// A person on the public site in Chromium: every page type passes axe-core and fits 375 px; votes,
// follows, reviews and flags work with the page script (no reload) and without JavaScript.

let app: TestApp;
let browser: Browser;
let slug: string;
let otherSlug: string;
beforeAll(async () => {
  app = await startTestApp({
    prepare: async (sql, siteId) => {
      await seedDemo(sql, siteId);
    },
  });
  browser = await launchBrowser();
  const rows = await app.sql`select slug from listings where site_id = ${app.siteId} and status = 'live' and owner_user_id is null order by id limit 2`;
  [slug, otherSlug] = [rows[0].slug, rows[1].slug];
  // Hostile text in a review and an update: no dialog may ever open.
  const [u] = await app.sql`insert into users (email, name) values ('hostile-browser@example.test', '<img src=x onerror=alert(1)>') returning id`;
  const [l] = await app.sql`select id from listings where slug = ${slug} and site_id = ${app.siteId}`;
  await app.sql`insert into reviews (listing_id, user_id, rating, body) values (${l.id}, ${u.id}, 3, '<script>alert(2)</script>')`;
  await app.sql`insert into listing_updates (listing_id, title, body) values (${l.id}, '"><svg onload=alert(3)>', 'javascript:alert(4)')`;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signInFrom(page: Page, email: string) {
  // The page's own "Sign in" link carries return_to; the person comes back to where they were.
  await allowNewSignInLink(app.sql, email);
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await page.goto(await latestSignInLink(app.sql, email));
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/sign-in')), page.getByRole('button', { name: 'Sign in' }).click()]);
}

const votes = async (s: string) =>
  (await app.sql`select count(*)::int as n from votes v join listings l on l.id = v.listing_id where l.slug = ${s} and l.site_id = ${app.siteId}`)[0]
    .n as number;

describe('actions in Chromium', () => {
  test('with the page script: vote, unvote, follow, review and flag without a reload; sign-in returns to the listing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    try {
      await page.goto(`${app.url}/listings/${slug}`);
      await signInFrom(page, 'js-person@example.test');
      expect(new URL(page.url()).pathname).toBe(`/listings/${slug}`);
      await page.evaluate(() => {
        (window as unknown as { marker: number }).marker = 1;
      });
      const before = await votes(slug);
      await page.getByRole('button', { name: /^Upvote/ }).click();
      await page.getByRole('button', { name: /^Voted/ }).waitFor();
      expect(await votes(slug)).toBe(before + 1);
      expect(await page.getByRole('button', { name: /^Voted/ }).textContent()).toContain(String(before + 1));
      await page.getByRole('button', { name: /^Voted/ }).click();
      await page.getByRole('button', { name: /^Upvote/ }).waitFor();
      expect(await votes(slug)).toBe(before);
      await page.getByRole('button', { name: /^Follow/ }).click();
      await page.getByRole('button', { name: /^Following/ }).waitFor();
      await page.getByRole('radio', { name: '4' }).check();
      await page.getByLabel('What do you think?').fill('Solid product, fair price.');
      await page.getByRole('button', { name: 'Post review' }).click();
      await page.getByText('Review saved.').waitFor();
      const [r] = await app.sql`select r.rating, r.body from reviews r join users u on u.id = r.user_id where u.email = 'js-person@example.test'`;
      expect(r).toEqual({ rating: 4, body: 'Solid product, fair price.' });
      await page.getByRole('button', { name: 'Flag this review' }).first().click();
      await page.getByText('Flagged. Thank you.').waitFor();
      expect((await app.sql`select count(*)::int as n from review_flags`)[0].n).toBe(1);
      // No navigation happened: the marker set on the page is still there.
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
      expect(dialogs).toEqual([]);
      expect(cspErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test('without JavaScript: the same forms post and come back to the listing', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/listings/${otherSlug}`);
      await signInFrom(page, 'nojs-person@example.test');
      expect(new URL(page.url()).pathname).toBe(`/listings/${otherSlug}`);
      const before = await votes(otherSlug);
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: /^Upvote/ }).click()]);
      expect(new URL(page.url()).pathname).toBe(`/listings/${otherSlug}`);
      expect(await page.getByRole('button', { name: /^Voted/ }).textContent()).toContain(String(before + 1));
      await page.getByRole('radio', { name: '5' }).check();
      await page.getByLabel('What do you think?').fill('Works without scripts.');
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Post review' }).click()]);
      expect(await page.getByRole('button', { name: 'Save review' }).isVisible()).toBe(true);
      expect(await page.locator('ol.reviews').textContent()).toContain('Works without scripts.');
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('every page type in Chromium', () => {
  const paths = () => [
    '/',
    `/listings/${slug}`,
    '/launches',
    '/launches/weeks/this',
    '/leaderboards',
    '/leaderboards/billboard',
    '/categories',
    '/categories/developer-tools',
    '/founders',
    '/founders/aisha-brennan',
    '/blog',
    '/blog/launch-week-checklist',
    '/awards',
    '/search?q=schedulr',
    `/compare?a=${slug}&b=${otherSlug}`,
    '/updates',
    '/pricing',
    '/listings/no-such-thing',
  ];

  test('axe-core finds no serious or critical violations, and nothing scrolls sideways at 375 px', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('dialog', (d) => {
      problems.push(`dialog ${d.message()}`);
      void d.dismiss();
    });
    try {
      for (const p of paths()) {
        await page.goto(app.url + p);
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        for (const v of result.violations)
          if (v.impact === 'serious' || v.impact === 'critical')
            problems.push(
              `${p}: ${v.id} ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
            );
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) problems.push(`${p}: ${overflow}px horizontal scroll at 375px`);
      }
      // The signed-in listing page: vote, follow, review and flag forms.
      await page.goto(`${app.url}/listings/${slug}`);
      await signInFrom(page, 'axe-person@example.test');
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      for (const v of result.violations)
        if (v.impact === 'serious' || v.impact === 'critical')
          problems.push(
            `signed-in listing: ${v.id} ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
          );
      if ((await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)) > 0)
        problems.push('signed-in listing: horizontal scroll at 375px');
    } finally {
      await context.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  test('feeds and sitemaps parse as XML in the browser', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${app.url}/`);
      for (const p of [
        '/feeds/launches.xml',
        '/feeds/blog.xml',
        `/feeds/listings/${slug}.xml`,
        '/sitemap.xml',
        '/sitemaps/pages.xml',
        '/sitemaps/listings-1.xml',
      ]) {
        const res = await fetch(app.url + p);
        const text = await res.text();
        const parsed = await page.evaluate((t) => {
          const doc = new DOMParser().parseFromString(t, 'application/xml');
          return {
            error: doc.getElementsByTagName('parsererror').length,
            root: doc.documentElement.localName,
            entries: doc.getElementsByTagName('entry').length,
          };
        }, text);
        expect(parsed.error).toBe(0);
        expect(['feed', 'sitemapindex', 'urlset']).toContain(parsed.root);
        if (p === `/feeds/listings/${slug}.xml`) expect(parsed.entries).toBeGreaterThan(0);
      }
    } finally {
      await page.close();
    }
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Logger, type Runner } from 'graphile-worker';
import AxeBuilder from '@axe-core/playwright';
import { launchBrowser, allowNewSignInLink, latestSignInLink, type Browser, type Page } from '../browser.ts';
import type { Route } from 'playwright-core';
import { startTestApp, type TestApp } from '../harness.ts';
import { startFixtureSite, type FixtureSite } from '../fixture-site.ts';
import { makeCategory, makeListing } from '../builders.ts';
import { startWorker } from '../../pipeline/worker.ts';

// A new maker's whole journey in Chromium, with the page script and without JavaScript: sign in,
// submit, watch the draft, read evidence, edit, submit, publish free, place the badge, Check now,
// find the coming-soon page from the home page and follow it; then a second person claims a live
// listing through its claim page with the meta tag. axe-core checks every maker page on the way.

let app: TestApp;
let worker: Runner;
let browser: Browser;
const homes: Record<string, { site: FixtureSite; extra: string }> = {};
let claimSite: FixtureSite;
let claimHead = '';
let claimSlug = '';

beforeAll(async () => {
  for (const name of ['Lumen', 'Quill Pad']) {
    const h = { extra: '' } as { site: FixtureSite; extra: string };
    h.site = startFixtureSite({ name, extraHome: () => h.extra });
    homes[name] = h;
  }
  claimSite = startFixtureSite({ name: 'Orbit', extraHead: () => claimHead });
  app = await startTestApp({
    env: { ALLOW_LOOPBACK_FETCH: 'true' },
    prepare: async (sql, siteId) => {
      const p = await makeCategory(sql, { slug: 'productivity', name: 'Productivity', position: 1 });
      await makeCategory(sql, { slug: 'note-taking', name: 'Note Taking', position: 1, parentId: p.id });
      const l = await makeListing(sql, { siteId, slug: 'orbit', name: 'Orbit', url: claimSite.url, domain: 'orbit.test', categoryId: p.id });
      claimSlug = l.slug;
    },
  });
  worker = await startWorker(app.config, app.databaseUrl, { logger: new Logger(() => () => {}) });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await app?.stop();
  for (const h of Object.values(homes)) h.site.stop();
  claimSite?.stop();
}, 60_000);

const axeProblems: string[] = [];
async function axe(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  for (const v of result.violations)
    if (v.impact === 'serious' || v.impact === 'critical')
      axeProblems.push(
        `${what}: ${v.id} ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
      );
}

async function signInVia(page: Page, email: string) {
  // Arrives at the sign-in page from a redirect; the mailed link brings the person back.
  await allowNewSignInLink(app.sql, email);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await page.goto(await latestSignInLink(app.sql, email));
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/sign-in')), page.getByRole('button', { name: 'Sign in' }).click()]);
}

async function journey(js: boolean, product: string, email: string) {
  const home = homes[product];
  const context = await browser.newContext({ javaScriptEnabled: js });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });

  // Signed out, /submit goes through sign-in and back.
  await page.goto(`${app.url}/submit`);
  expect(new URL(page.url()).pathname).toBe('/sign-in');
  await signInVia(page, email);
  expect(new URL(page.url()).pathname).toBe('/submit');
  if (js) await axe(page, 'submit');

  // The page script reloads the draft page when a poll says the state moved on; axe-core must not
  // run across that reload, so the polls wait (held here) until the in-progress page is checked.
  const held: Route[] = [];
  let release = false;
  await page.route('**/me/drafts/*/progress', (route) => (release ? route.continue() : void held.push(route)));
  await page.getByLabel('Website address').fill(home.site.url);
  await page.getByRole('button', { name: 'Draft my listing' }).click();
  await page.waitForURL(/\/me\/drafts\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'Progress' }).waitFor();
  if (js) await axe(page, 'draft in progress');
  release = true;
  for (const route of held) await route.continue();
  // Progress moves on by itself: the script polls, or the page refreshes itself without JavaScript.
  await page.getByRole('heading', { name: 'Profile' }).waitFor({ timeout: 60_000 });
  await expect(page.locator('.progress-text').textContent()).resolves.toMatch(/^Ready: \d+% complete\.$/);
  if (js) await axe(page, 'draft ready');

  // Evidence: a quote and a link to the page it came from.
  const nameField = page.locator('#field-name');
  await expect(nameField.locator('.evidence q').first().textContent()).resolves.toBeTruthy();
  const evidenceHref = await nameField.locator('.evidence a').first().getAttribute('href');
  expect(evidenceHref?.startsWith(home.site.url.replace(/\/$/, ''))).toBe(true);
  expect(await nameField.locator('.tag').first().textContent()).toBe('AI');

  // Edit a field in place.
  const tagline = page.locator('#field-tagline');
  await tagline.getByLabel('Tagline').fill(`${product}: notes that think with you`);
  await tagline.getByRole('button', { name: 'Save' }).click();
  await page.locator('#field-tagline').getByText('edited').waitFor();
  await expect(page.getByLabel('Tagline').inputValue()).resolves.toBe(`${product}: notes that think with you`);

  // Submit: the listing's dashboard page.
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.waitForURL(/\/me\/listings\/\d+/);
  const listingPath = new URL(page.url()).pathname;
  if (js) await axe(page, 'listing, not published');

  // Publish free: the week is shown before, the badge and its embed code after.
  const choice = page.getByRole('radio', { name: /^Week of/ }).last();
  const week = (await choice.getAttribute('value'))!;
  await choice.check();
  await page.getByRole('button', { name: 'Publish free' }).click();
  await page.getByText('Queued for its launch week. Now place the badge.').waitFor();
  const embed = await page.getByLabel('Embed code').inputValue();
  expect(embed).toContain('/listings/');
  if (js) await axe(page, 'listing awaiting badge');
  await page.goto(`${app.url}/me/listings`);
  await page.getByText(`launches the week of ${week} once it is found`).waitFor();
  if (js) await axe(page, 'dashboard');

  // Place the badge on the product's homepage, then Check now.
  home.extra = `<footer>${embed}</footer>`;
  await app.sql`update listings set badge_checked_at = now() - interval '2 minutes' where id = ${Number(listingPath.split('/').pop())}`;
  await page.goto(app.url + listingPath);
  await page.getByRole('button', { name: 'Check now' }).click();
  await page.getByText(`Badge found: scheduled for the week of ${week}.`).waitFor();

  // The home page links to it (not as a ranking), and its coming-soon page has "notify me".
  await app.sql`select refresh_directory_views()`;
  const slug = (await app.sql`select slug from listings where id = ${Number(listingPath.split('/').pop())}`)[0].slug;
  await page.goto(`${app.url}/`);
  await page
    .locator('#upcoming')
    .locator('..')
    .getByRole('link', { name: new RegExp(product) })
    .click();
  await page.waitForURL(`${app.url}/listings/${slug}`);
  await page.getByText('Coming soon').first().waitFor();
  await page.getByText(`Launches the week of ${week}`).waitFor();
  if (js) await axe(page, 'coming soon');
  await page.getByRole('button', { name: 'Notify me at launch' }).click();
  await page.getByRole('button', { name: 'You will be notified' }).waitFor();
  if (js) {
    for (const path of ['/me/drafts', '/me/order', '/me/interview', listingPath, '/account']) {
      await page.goto(app.url + path);
      await axe(page, path);
    }
  }
  expect(dialogs).toEqual([]);
  // axe-core: no serious or critical problem on any maker page of the journey.
  expect(axeProblems).toEqual([]);
  await context.close();
  return slug;
}

describe('a maker on the site', () => {
  test('the whole journey with the page script', async () => {
    await journey(true, 'Lumen', 'maker-js@example.test');
  }, 180_000);

  test('the whole journey without JavaScript', async () => {
    await journey(false, 'Quill Pad', 'maker-nojs@example.test');
  }, 180_000);

  for (const js of [true, false])
    test(`the draft page follows the crawl: ${js ? 'polled in place, reloaded when the state moves on' : 'refreshed by itself without JavaScript'}`, async () => {
      const email = `watcher-${js ? 'js' : 'nojs'}@example.test`;
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await page.goto(`${app.url}/me/drafts`);
      await signInVia(page, email);
      const [u] = await app.sql`select id from users where email = ${email}`;
      const [d] =
        await app.sql`insert into drafts (site_id, user_id, url, domain, status) values (${app.siteId}, ${u.id}, 'https://watched.example/', 'watched.example', 'crawling') returning id::text`;
      let navigations = 0;
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations++;
      });
      await page.goto(`${app.url}/me/drafts/${d.id}`);
      await page.getByText('Reading watched.example: 0 pages read so far.').waitFor();
      const before = navigations;
      await app.sql`insert into draft_pages (draft_id, kind, position, url, status, title, text, html, fetched_at)
                    values (${d.id}, 'site', 0, 'https://watched.example/', 200, 'Home', 'Watched', '<p>Watched</p>', now())`;
      await page.getByText('Reading watched.example: 1 page read so far.').waitFor({ timeout: 15_000 });
      // With the script the line changes in place; without it the page refreshed itself.
      if (js) expect(navigations).toBe(before);
      else expect(navigations).toBeGreaterThan(before);
      await app.sql`update drafts set status = 'ready', drafted_at = now() where id = ${d.id}`;
      await page.getByRole('heading', { name: 'Profile' }).waitFor({ timeout: 15_000 });
      await context.close();
    }, 120_000);

  for (const js of [true, false])
    test(`a second person claims a live listing through its claim page with the meta tag (JavaScript ${js ? 'on' : 'off'})`, async () => {
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      const email = `claimer-${js ? 'js' : 'nojs'}@example.test`;
      await page.goto(`${app.url}/listings/${claimSlug}`);
      await page.getByRole('link', { name: 'Is this your product? Claim it' }).click();
      await signInVia(page, email);
      expect(new URL(page.url()).pathname).toBe(`/listings/${claimSlug}/claim`);
      if (js) await axe(page, 'claim start');
      await page.getByRole('radio', { name: /Meta tag/ }).check();
      await page.getByRole('button', { name: 'Start claim' }).click();
      await page.waitForURL(/\/me\/claims\/\d+$/);
      const tag = await page.locator('#meta-tag').inputValue();
      expect(tag).toMatch(/^<meta name="listing-directory-verification" content="[^"]+">$/);
      if (js) await axe(page, 'claim instructions');
      // Verify before the tag is there: the precise reason.
      claimHead = '';
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('Not verified yet: The meta tag was not found on your homepage.').waitFor();
      await expect(page.locator('.claim-detail').textContent()).resolves.toContain(`in the <head> of ${claimSite.url}`);
      claimHead = tag;
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText(/Verified: you own Orbit\./).waitFor();
      await page.getByRole('link', { name: 'Your listings' }).first().click();
      await page.getByRole('link', { name: 'Orbit' }).waitFor();
      expect(axeProblems).toEqual([]);
      await context.close();
    }, 120_000);
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { launchBrowser, signInWithBrowser, type Browser } from '../browser.ts';
import { startTestApp, type TestApp } from '../harness.ts';

// In Chromium: the owner of a listing sees no review form and no flag buttons on it, and answers a
// review once through the reply form; another person's flag leaves the review in place.

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp({
    prepare: async (sql, siteId) => {
      const [owner] = await sql`insert into users (email) values ('owner-browser@example.test') returning id`;
      const [co] = await sql`insert into companies (name, domain, website_url) values ('Acme', 'acme.test', 'https://acme.test') returning id`;
      const [l] = await sql`
        insert into listings (site_id, company_id, slug, name, url, domain, status, owner_user_id)
        values (${siteId}, ${co.id}, 'acme', 'Acme', 'https://acme.test', 'acme.test', 'live', ${owner.id}) returning id`;
      const [critic] = await sql`insert into users (email, name) values ('critic-browser@example.test', 'Critic') returning id`;
      await sql`insert into reviews (listing_id, user_id, rating, body) values (${l.id}, ${critic.id}, 2, 'Setup took me an hour.')`;
    },
  });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('reviews in Chromium', () => {
  test('the owner has no review form or flag button, and replies once', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signInWithBrowser(page, { baseUrl: app.url, sql: app.sql, email: 'owner-browser@example.test', returnTo: '/listings/acme' });
      await page.goto(`${app.url}/listings/acme`);
      await page.getByText('Setup took me an hour.').waitFor();
      expect(await page.getByRole('button', { name: 'Flag this review' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Post review' }).count()).toBe(0);
      await page.getByLabel('Answer this review publicly (once)').fill('Our new installer takes two minutes.');
      await Promise.all([page.waitForURL(/#review-\d+$/), page.getByRole('button', { name: 'Post reply' }).click()]);
      await page.getByText('Reply from the owner').waitFor();
      expect(await page.getByText('Our new installer takes two minutes.').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Post reply' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("another person's single flag leaves the review shown", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signInWithBrowser(page, { baseUrl: app.url, sql: app.sql, email: 'reader-browser@example.test', returnTo: '/listings/acme' });
      await page.goto(`${app.url}/listings/acme`);
      await page.getByRole('button', { name: 'Flag this review' }).click();
      await page.getByText('Flagged. Thank you.').waitFor();
      await page.reload();
      await page.getByText('Setup took me an hour.').waitFor();
      expect((await app.sql`select count(*)::int as n from review_flags`)[0].n).toBe(1);
    } finally {
      await context.close();
    }
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { runOps } from '../../pipeline/ops/run.ts';
import { eventually } from '../eventually.ts';

// Reviews nobody can silence alone: owners (and co-owners) neither review nor flag their listing,
// one flag never hides a review, enough flags from distinct established accounts do (site
// settings), and the owner answers a review once, in public.

let app: TestApp;
let listingId = 0;
let reviewId = 0;

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [owner] = await sql`insert into users (email) values ('owner@example.test') returning id`;
      const [co] = await sql`insert into companies (name, domain, website_url) values ('Acme', 'acme.test', 'https://acme.test') returning id`;
      const [l] =
        await sql`insert into listings ${sql({ site_id: siteId, company_id: co.id, slug: 'acme', name: 'Acme', url: 'https://acme.test', domain: 'acme.test', status: 'live', owner_user_id: owner.id } as never)} returning id`;
      listingId = Number(l.id);
      // A co-owner: holds a verified claim on the listing's company.
      const [coOwner] = await sql`insert into users (email) values ('co-owner@example.test') returning id`;
      await sql`insert into company_owners (company_id, user_id) values (${co.id}, ${coOwner.id})`;
      const [critic] = await sql`insert into users (email, name) values ('critic@example.test', 'Critic') returning id`;
      const [r] =
        await sql`insert into reviews (listing_id, user_id, rating, body) values (${l.id}, ${critic.id}, 1, 'The only bad review: it crashed twice.') returning id`;
      reviewId = Number(r.id);
      // Established accounts (a month old) and one made today.
      for (const who of ['old-1', 'old-2', 'old-3', 'old-4'])
        await sql`insert into users (email, created_at) values (${`${who}@example.test`}, now() - interval '30 days')`;
      await sql`insert into users (email) values ('fresh@example.test')`;
    },
  });
}, 120_000);
afterAll(() => app.stop());

async function signedIn(email: string) {
  const c = new WebClient(app.url, app.fetch);
  await signInWithClient(c, app.sql, email);
  return c;
}
const asJson = { headers: { accept: 'application/json' } };
const hidden = async () => (await app.sql`select flagged from reviews where id = ${reviewId}`)[0].flagged as boolean;
const ratingIs = async (count: number) => {
  await app.sql`select refresh_directory_views()`;
  return eventually(
    async () => (await app.json('/listings/acme')).body.community_rating.count as number,
    (n) => n === count,
  );
};
const pageShowsReview = async () => (await (await app.fetch(`${app.url}/listings/acme`)).text()).includes('The only bad review');

describe('owners', () => {
  test('the owner and a co-owner cannot flag or review their listing: refused with a code, and the buttons are not shown', async () => {
    for (const email of ['owner@example.test', 'co-owner@example.test']) {
      const c = await signedIn(email);
      const csrf = await c.csrf('/listings/acme');
      const flag = await c.post(`/reviews/${reviewId}/flag`, { csrf }, asJson);
      expect(flag.status).toBe(403);
      expect((await flag.json()).outcome).toBe('own_listing');
      const vote = await c.post('/listings/acme/vote', { csrf, do: 'add' }, asJson);
      expect(vote.status).toBe(403);
      expect((await vote.json()).outcome).toBe('own_listing');
      const review = await c.post('/listings/acme/review', { csrf, rating: '5', body: 'We are great' }, asJson);
      expect(review.status).toBe(403);
      expect((await review.json()).outcome).toBe('own_listing');
      const page = await (await c.get('/listings/acme')).text();
      expect(page).not.toContain('Flag this review');
      expect(page).not.toContain('Post review');
      expect(page).toContain('you cannot review it');
    }
    expect((await app.sql`select count(*)::int as n from review_flags`)[0].n).toBe(0);
    expect((await app.sql`select count(*)::int as n from votes`)[0].n).toBe(0);
    expect((await app.sql`select count(*)::int as n from reviews where listing_id = ${listingId}`)[0].n).toBe(1);
    expect(await hidden()).toBe(false);
    expect(await ratingIs(1)).toBe(1);
    expect(await pageShowsReview()).toBe(true);
  });
});

describe('flags', () => {
  test('one flag never hides a review; flags from 3 distinct accounts older than 7 days do', async () => {
    const flag = async (email: string) => {
      const c = await signedIn(email);
      const res = await c.post(`/reviews/${reviewId}/flag`, { csrf: await c.csrf('/listings/acme') }, asJson);
      expect(res.status).toBe(200);
    };
    await flag('old-1@example.test');
    expect(await hidden()).toBe(false);
    expect(await ratingIs(1)).toBe(1);
    expect(await pageShowsReview()).toBe(true);
    await flag('old-1@example.test'); // the same account again is still one flag
    await flag('fresh@example.test'); // too young to count
    await flag('old-2@example.test');
    expect(await hidden()).toBe(false);
    await flag('old-3@example.test');
    expect(await hidden()).toBe(true);
    expect(await ratingIs(0)).toBe(0);
    expect(await eventually(pageShowsReview, (shown) => !shown)).toBe(false);

    // The queue shows it first, with who flagged it.
    const out: string[] = [];
    const io = { sql: app.sql, out: (l: string) => out.push(l), err: (l: string) => out.push(l), actor: 'tess' };
    expect(await runOps(['reviews', 'flagged'], io)).toBe(0);
    expect(out[0]).toBe(`review ${reviewId} on acme by critic@example.test: 1/5, 4 flags (hidden) - "The only bad review: it crashed twice."`);
    expect(out[1]).toBe('    flagged by old-1@example.test, fresh@example.test, old-2@example.test, old-3@example.test');

    // Keeping it shows it again; the old flags stay on record but no longer count.
    expect(await runOps(['reviews', 'keep', String(reviewId), '--reason', 'A fair account of a real problem'], io)).toBe(0);
    expect(await hidden()).toBe(false);
    expect(await ratingIs(1)).toBe(1);
    expect((await app.sql`select count(*)::int as n from review_flags where review_id = ${reviewId} and resolved_at is not null`)[0].n).toBe(4);
    const mails = await app.sql`select to_address, body_text from mail_outbox where kind in ('review_decision', 'review_flag_decision') order by to_address`;
    expect(mails.map((m) => m.to_address)).toEqual([
      'critic@example.test',
      'fresh@example.test',
      'old-1@example.test',
      'old-2@example.test',
      'old-3@example.test',
    ]);
    for (const m of mails) expect(m.body_text).toContain('kept it');
    out.length = 0;
    await runOps(['reviews', 'flagged'], io);
    expect(out).toEqual(['No flagged reviews.']);
  });

  test('the threshold and the account age are site settings', async () => {
    const out: string[] = [];
    const io = { sql: app.sql, out: (l: string) => out.push(l), err: (l: string) => out.push(l), actor: 'tess' };
    expect(await runOps(['site', 'set', '--review-hide-flags', '1', '--review-flagger-min-age-days', '0'], io)).toBe(0);
    expect(out.join('\n')).toContain('a review is hidden after 1 flags from accounts older than 0 days');
    const c = await signedIn('old-4@example.test');
    await c.post(`/reviews/${reviewId}/flag`, { csrf: await c.csrf('/listings/acme') });
    expect(await hidden()).toBe(true);
    expect(await runOps(['site', 'set', '--review-hide-flags', '0'], io)).toBe(2);
    expect(await runOps(['site', 'set', '--review-hide-flags', '3', '--review-flagger-min-age-days', '7'], io)).toBe(0);
    expect(await runOps(['reviews', 'keep', String(reviewId), '--reason', 'Still fair'], io)).toBe(0);
    expect(await hidden()).toBe(false);
    const audit = await app.sql`select action from operator_audit where action like 'site.%' or action like 'review.%' order by id`;
    expect(audit.map((a) => a.action)).toEqual(['review.keep', 'site.set', 'site.set', 'review.keep']);
  });
});

describe('owner reply', () => {
  test('the owner answers a review once, shown under it; nobody else can', async () => {
    const stranger = await signedIn('old-1@example.test');
    let res = await stranger.post(`/reviews/${reviewId}/reply`, { csrf: await stranger.csrf('/listings/acme'), body: 'Not mine to answer' }, asJson);
    expect(res.status).toBe(403);
    expect((await res.json()).outcome).toBe('not_owner');
    const owner = await signedIn('co-owner@example.test');
    const csrf = await owner.csrf('/listings/acme');
    expect(await (await owner.get('/listings/acme')).text()).toContain('Answer this review publicly (once)');
    res = await owner.post(`/reviews/${reviewId}/reply`, { csrf, body: '' }, asJson);
    expect(res.status).toBe(400);
    res = await owner.post(`/reviews/${reviewId}/reply`, { csrf, body: 'Fixed in 2.1, thanks for the report.' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${app.url}/listings/acme#review-${reviewId}`);
    res = await owner.post(`/reviews/${reviewId}/reply`, { csrf, body: 'A second answer' }, asJson);
    expect(res.status).toBe(409);
    expect((await res.json()).outcome).toBe('already_replied');
    const page = await eventually(
      async () => (await app.fetch(`${app.url}/listings/acme`)).text(),
      (t) => t.includes('Fixed in 2.1'),
    );
    expect(page).toContain('Reply from the owner');
    expect(page).toContain('Fixed in 2.1, thanks for the report.');
    expect(page).not.toContain('A second answer');
    expect(await (await owner.get('/listings/acme')).text()).not.toContain('Answer this review publicly');
  });
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { eventually } from '../eventually.ts';
import { deleteExpiredRecords } from '../../sql/queries/expiry.ts';

// Each vote keeps what is needed to judge it, never the address: the account's age, how it signed
// in, a keyed hash of its network, its browser family, and whether it had opened the listing first.

let app: TestApp;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [co] = await sql`insert into companies (name, domain, website_url) values ('Acme', 'acme.test', 'https://acme.test') returning id`;
      await sql`insert into listings ${sql({ site_id: siteId, company_id: co.id, slug: 'acme', name: 'Acme', url: 'https://acme.test', domain: 'acme.test', status: 'live' } as never)}`;
    },
  });
}, 120_000);
afterAll(() => app.stop());

async function signedIn(email: string) {
  const c = new WebClient(app.url, app.fetch);
  await signInWithClient(c, app.sql, email);
  return c;
}
const signalsOf = async (email: string) =>
  (
    await app.sql`
    select extract(epoch from s.account_age)::float8 as age, s.sign_in, encode(s.network, 'hex') as network, s.ua_family, s.visited_before
    from vote_signals s join votes v on v.id = s.vote_id join users u on u.id = v.user_id where u.email = ${email}`
  )[0];

describe('vote signals', () => {
  test('a vote through the form stores its signals; the network only as a keyed hash', async () => {
    const visitor = await signedIn('visitor@example.test');
    await app.sql`update users set created_at = now() - interval '40 days' where email = 'visitor@example.test'`;
    // Opening the listing first is what a person does (the view is counted in the background).
    await app.fetch(`${app.url}/listings/acme`, { headers: { 'user-agent': CHROME } });
    await eventually(
      async () => (await app.sql`select count(*)::int as n from listing_view_visitors`)[0].n as number,
      (n) => n > 0,
    );
    const csrf = await visitor.csrf('/listings/acme');
    expect((await visitor.post('/listings/acme/vote', { csrf, do: 'add' }, { headers: { 'user-agent': CHROME } })).status).toBe(303);
    const s = await signalsOf('visitor@example.test');
    expect(s).toMatchObject({ sign_in: 'email_link', ua_family: 'chrome', visited_before: true });
    expect(s.age).toBeGreaterThan(39 * 86400);
    expect(s.network).toMatch(/^[0-9a-f]{64}$/);

    // Straight to the vote, never having opened the page, with a script's user agent.
    const bot = await signedIn('bot@example.test');
    const botCsrf = await bot.csrf('/sign-in');
    expect((await bot.post('/listings/acme/vote', { csrf: botCsrf, do: 'add' }, { headers: { 'user-agent': 'python-requests/2.31' } })).status).toBe(303);
    const b = await signalsOf('bot@example.test');
    expect(b).toMatchObject({ sign_in: 'email_link', ua_family: 'bot', visited_before: false });
    expect(b.age).toBeLessThan(3600);
    // Same machine, same network: the same hash, which is not the address's plain digest.
    expect(b.network).toBe(s.network);
    const plain = (await app.sql`select encode(sha256('127.0.0.0/24'), 'hex') as h`)[0].h;
    expect(s.network).not.toBe(plain);
    const dump = JSON.stringify(await app.sql`select encode(network, 'escape') as n, ua_family, sign_in from vote_signals`);
    expect(dump).not.toContain('127.0.0');

    // Voting again keeps the first vote's signals; taking the vote back takes its signals with it.
    await bot.post('/listings/acme/vote', { csrf: botCsrf, do: 'add' }, { headers: { 'user-agent': CHROME } });
    expect((await signalsOf('bot@example.test')).ua_family).toBe('bot');
    await bot.post('/listings/acme/vote', { csrf: botCsrf, do: 'remove' });
    expect(await signalsOf('bot@example.test')).toBeUndefined();
  });

  test('signals are kept 400 days; the vote stays', async () => {
    await app.sql`update vote_signals set created_at = now() - interval '401 days'`;
    const deleted = await deleteExpiredRecords(app.sql);
    expect(deleted.vote_signals).toBe(1);
    expect((await app.sql`select count(*)::int as n from vote_signals`)[0].n).toBe(0);
    expect((await app.sql`select count(*)::int as n from votes`)[0].n).toBe(1);
  });
});

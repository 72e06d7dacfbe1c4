import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { runOpsCommand } from '../ops.ts';

// A suspended person's follows are kept but stop counting, as their votes do: in listing_stats
// (get_listing, the most-followed sorts), the live count a signed-in page shows and the coming-soon
// page's count; restoring the person brings them back.

let app: TestApp;
const ids: Record<string, number> = {};
const users: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const [owner] = await sql`insert into users (email) values ('maker@example.test') returning id`;
      for (const [slug, status] of [
        ['crowded', 'live'],
        ['steady', 'live'],
        ['soon', 'scheduled'],
      ]) {
        const [co] = await sql`insert into companies (name, domain, website_url) values (${slug}, ${`${slug}.test`}, ${`https://${slug}.test`}) returning id`;
        const [l] = await sql`
          insert into listings (site_id, company_id, slug, name, url, domain, status, owner_user_id, launched_at, launch_week, tagline)
          values (${siteId}, ${co.id}, ${slug}, ${`The ${slug} app`}, ${`https://${slug}.test`}, ${`${slug}.test`}, ${status}, ${owner.id},
                  ${status === 'live' ? sql`now() - interval '1 day'` : null}, ${status === 'live' ? null : sql`date_trunc('week', now() at time zone 'utc')::date + 14`}, 'Quilted gadgets')
          returning id`;
        ids[slug] = Number(l.id);
      }
      for (const who of ['troll1', 'troll2', 'fan1', 'fan2', 'fan3']) {
        users[who] = String((await sql`insert into users (email) values (${`${who}@example.test`}) returning id`)[0].id);
      }
      // crowded: two trolls and a fan (3); steady: two fans (2); soon: both trolls and a fan (3).
      const follows = [
        ['crowded', 'troll1'],
        ['crowded', 'troll2'],
        ['crowded', 'fan1'],
        ['steady', 'fan2'],
        ['steady', 'fan3'],
        ['soon', 'troll1'],
        ['soon', 'troll2'],
        ['soon', 'fan1'],
      ];
      for (const [slug, who] of follows) await sql`insert into follows (listing_id, user_id) values (${ids[slug]}, ${users[who]})`;
    },
  });
}, 120_000);
afterAll(() => app.stop());

const ops = async (...argv: string[]) => (await runOpsCommand(argv, { sql: app.sql, actor: 'moderator' })).code;

/** What the public reads say after the minute refresh has run. */
async function counts() {
  await app.sql`select refresh_directory_views()`;
  const [crowded, steady, sorted, section, soon] = await Promise.all([
    app.json('/listings/crowded'),
    app.json('/listings/steady'),
    app.json('/listings?sort=most_followed'),
    app.json('/launches?section=most-followed'),
    app.fetch(`${app.url}/listings/soon`, { headers: { accept: 'text/html' } }).then((r) => r.text()),
  ]);
  return {
    crowded: crowded.body.follows as number,
    steady: steady.body.follows as number,
    sorted: sorted.body.items.map((i: any) => i.slug) as string[],
    section: section.body.items.map((i: any) => i.listing?.slug ?? i.slug) as string[],
    soon: /(\d+) waiting for it/.exec(soon)?.[1],
  };
}

describe('a suspended follower', () => {
  test('stops counting everywhere follows are counted, and counts again once restored', async () => {
    const fan = new WebClient(app.url, app.fetch);
    await signInWithClient(fan, app.sql, 'fan2@example.test');
    const livePage = async () => /Follow(?:ing)? <span class="count">(\d+)</.exec(await (await fan.get('/listings/crowded')).text())?.[1];

    const before = { crowded: 3, steady: 2, sorted: ['crowded', 'steady'], section: ['crowded', 'steady'], soon: '3' };
    expect(await counts()).toEqual(before);
    expect(await livePage()).toBe('3');

    for (const who of ['troll1', 'troll2']) expect(await ops('users', 'suspend', `${who}@example.test`, '--reason', 'Follow farming')).toBe(0);
    // Kept, not counted.
    expect((await app.sql`select count(*)::int as n from follows where listing_id = ${ids.crowded}`)[0].n).toBe(3);
    expect(await counts()).toEqual({ crowded: 1, steady: 2, sorted: ['steady', 'crowded'], section: ['steady', 'crowded'], soon: '1' });
    expect(await livePage()).toBe('1');

    for (const who of ['troll1', 'troll2']) expect(await ops('users', 'restore', `${who}@example.test`)).toBe(0);
    expect(await counts()).toEqual(before);
    expect(await livePage()).toBe('3');
  });
});

import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../harness.ts';
import { eventually } from '../eventually.ts';
import { unvote } from '../../core/community/actions.ts';
import { runOpsCommand } from '../ops.ts';

// One launch week, simulated: four organic launches voted by established accounts from many
// networks, spread over days; and one launch boosted by 300 fresh accounts voting from five
// networks in bursts, the pattern seen in the wild. The site team finds the ring with ops votes
// suspicious, discounts it, and every ranking, the awards and the public integrity report follow.

const DAY = 86_400_000;
const now = new Date();
const thisMonday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ((now.getUTCDay() + 6) % 7) * DAY;
const WEEK = new Date(thisMonday - 7 * DAY).toISOString().slice(0, 10); // last week: finished, so it has awards
const ORGANIC: [string, number][] = [
  ['orchid', 120],
  ['maple', 90],
  ['birch', 60],
  ['cedar', 30],
];
const BOOST_ORGANIC = 20;
const RING = 300;
const REASON = 'Vote ring: 300 accounts made within an hour voting from five networks in bursts';

let app: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      await sql`update sites set first_launch_week = ${WEEK}::date - 70 where id = ${siteId}`;
      for (const [slug] of [...ORGANIC, ['boost', 0] as const]) {
        const [co] = await sql`insert into companies (name, domain, website_url) values (${slug}, ${`${slug}.test`}, ${`https://${slug}.test`}) returning id`;
        const [l] = await sql`
          insert into listings (site_id, company_id, slug, name, url, domain, status, launch_week, launched_at)
          values (${siteId}, ${co.id}, ${slug}, ${slug}, ${`https://${slug}.test`}, ${`${slug}.test`}, 'live', ${WEEK}::date,
                  ${WEEK}::timestamp at time zone 'utc' + interval '1 hour') returning id`;
        ids[slug] = Number(l.id);
      }
      // 200 established people, each on a network of their own.
      await sql`insert into users (email, created_at)
                select 'person' || g || '@example.test', now() - (30 + g) * interval '1 day' from generate_series(1, 200) g`;
      const organic = async (slug: string, n: number, shift: number) => {
        // Spread over six and a half days, each vote over an hour after the one before.
        await sql`
          insert into votes (listing_id, user_id, created_at)
          select ${ids[slug]}, u.id, ${WEEK}::timestamp at time zone 'utc' + interval '3 hours' + (g - 1) * (interval '156 hours' / ${n}) + ${shift} * interval '1 minute'
          from generate_series(1, ${n}) g join users u on u.email = 'person' || ((g + ${shift}) % 200 + 1) || '@example.test'`;
        await sql`
          insert into vote_signals (vote_id, account_age, sign_in, network, ua_family, visited_before, created_at)
          select v.id, v.created_at - u.created_at, 'email_link', vote_network_hash('10.' || (u.id / 256) || '.' || (u.id % 256) || '.0/24'),
                 (array['chrome', 'firefox', 'safari'])[1 + u.id % 3], u.id % 7 <> 0, v.created_at
          from votes v join users u on u.id = v.user_id where v.listing_id = ${ids[slug]}`;
      };
      for (const [i, [slug, n]] of ORGANIC.entries()) await organic(slug, n, i * 37);
      await organic('boost', BOOST_ORGANIC, 11);
      // The ring: 300 accounts made 15 s apart, voting two hours later in six bursts of 50, 30 s apart, from five networks.
      await sql`insert into users (email, created_at)
                select 'ring' || g || '@example.test', ${WEEK}::timestamp at time zone 'utc' + interval '2 days' + (g - 1) * interval '15 seconds'
                from generate_series(1, ${RING}) g`;
      await sql`
        insert into votes (listing_id, user_id, created_at)
        select ${ids.boost}, u.id, ${WEEK}::timestamp at time zone 'utc' + interval '2 days 2 hours'
               + ((g - 1) / 50) * interval '4 hours' + ((g - 1) % 50) * interval '30 seconds'
        from generate_series(1, ${RING}) g join users u on u.email = 'ring' || g || '@example.test'`;
      await sql`
        insert into vote_signals (vote_id, account_age, sign_in, network, ua_family, visited_before, created_at)
        select v.id, v.created_at - u.created_at, 'email_link', vote_network_hash('198.51.' || (100 + u.id % 5) || '.0/24'), 'chrome', false, v.created_at
        from votes v join users u on u.id = v.user_id where u.email like 'ring%'`;
      await sql`select refresh_listing_stats()`;
      await sql`select award_week(${siteId}, ${WEEK}::date)`;
    },
  });
}, 120_000);
afterAll(() => app.stop());

const ops = async (...argv: string[]) => {
  const { code, lines } = await runOpsCommand(argv, { sql: app.sql, actor: 'trust-and-safety' });
  return { code, out: lines };
};
const awards = async () =>
  (await app.sql`select l.slug from awards a join listings l on l.id = a.listing_id where a.week = ${WEEK}::date order by a.rank`).map((r) => r.slug);
const trending = async () => ((await app.json('/launches?section=trending')).body.items as { slug: string }[]).map((i) => i.slug);
const ranking = async () => {
  const body = (await app.json(`/launches/weeks/${WEEK}`)).body;
  return body.items.map((i: { listing: { slug: string }; votes: number }) => `${i.listing.slug}:${i.votes}`);
};

describe('a vote ring in one launch week', () => {
  test('the boosted launch wins until the site team discounts the ring; then the organic winner gets the award', async () => {
    expect(await awards()).toEqual(['boost', 'orchid', 'maple']);
    expect(await ranking()).toEqual(['boost:320', 'orchid:120', 'maple:90', 'birch:60', 'cedar:30']);
    expect((await trending())[0]).toBe('boost');

    // The report before: the ring shows in the numbers, nothing is discounted yet.
    let report = (await app.json(`/launches/weeks/${WEEK}/integrity`)).body;
    const boost = report.items.find((i: { listing: { slug: string } }) => i.listing.slug === 'boost');
    expect(boost).toMatchObject({ votes: 320, counted_votes: 320, new_account_votes: 300, top_network_votes: 60, discounted_votes: 0 });
    // Every ring vote is in a burst (an organic vote cast during one counts too).
    expect(boost.burst_votes).toBeGreaterThanOrEqual(300);
    expect(boost.burst_votes).toBeLessThanOrEqual(302);
    const orchid = report.items.find((i: { listing: { slug: string } }) => i.listing.slug === 'orchid');
    expect(orchid).toMatchObject({ votes: 120, new_account_votes: 0, top_network_votes: 1, burst_votes: 0, summary: '120 votes, 0% from new accounts' });

    // Only the boosted launch has clusters, and together they hold exactly the ring's votes.
    const found = await ops('votes', 'suspicious', '--week', WEEK);
    expect(found.code).toBe(0);
    const clusters = found.out.filter((l) => /^\S+: \d+ votes, /.test(l));
    expect(clusters.length).toBeGreaterThan(0);
    expect(new Set(clusters.map((l) => l.split(':')[0]))).toEqual(new Set(['boost']));
    expect(found.out.join('\n')).toContain('one network, one burst');
    expect(found.out.join('\n')).toContain('accounts created together');
    const voteIds = [...new Set(found.out.filter((l) => l.startsWith('    ids ')).flatMap((l) => l.slice(8).split(',')))];
    const ring = (await app.sql`select v.id::text from votes v join users u on u.id = v.user_id where u.email like 'ring%' order by v.id`).map((r) => r.id);
    expect(voteIds.sort()).toEqual([...ring].sort());

    const discounted = await ops('votes', 'discount', '--ids', voteIds.join(','), '--reason', REASON);
    expect(discounted.code).toBe(0);
    expect(discounted.out[0]).toBe('boost: 300 votes discounted');
    expect(await awards()).toEqual(['orchid', 'maple', 'birch']);
    expect(await eventually(ranking, (r) => r[0] === 'orchid:120')).toEqual(['orchid:120', 'maple:90', 'birch:60', 'cedar:30', 'boost:20']);
    expect(await eventually(trending, (t) => t[0] === 'orchid')).toEqual(['orchid', 'maple', 'birch', 'cedar', 'boost']);
    const board = (await app.json(`/leaderboards/community-weekly?week=${WEEK}`)).body;
    expect(board.items[0].listing.slug).toBe('orchid');
    const allTime = (await app.json('/leaderboards/community-all-time')).body;
    expect(allTime.items.map((i: { listing: { slug: string } }) => i.listing.slug)).toEqual(['orchid', 'maple', 'birch', 'cedar', 'boost']);
    // Kept, never deleted.
    expect((await app.sql`select count(*)::int as n from votes where listing_id = ${ids.boost}`)[0].n).toBe(320);

    // The public report shows the discounted votes with the reason, on REST and MCP alike.
    report = await eventually(
      async () => (await app.json(`/launches/weeks/${WEEK}/integrity`)).body,
      (b) => b.items[0].listing.slug === 'orchid',
    );
    const after = report.items.find((i: { listing: { slug: string } }) => i.listing.slug === 'boost');
    expect(after).toMatchObject({
      rank: 5,
      votes: 320,
      counted_votes: 20,
      discounted_votes: 300,
      discounted: [{ reason: REASON, votes: 300 }],
      summary: '20 votes, 94% from new accounts, 300 discounted',
    });
    for (const i of report.items.filter((x: { listing: { slug: string } }) => x.listing.slug !== 'boost')) expect(i.discounted_votes).toBe(0);

    const audit = await app.sql`select action, target, actor, after from operator_audit where action like 'votes.%' order by id`;
    expect(audit.map((a) => [a.action, a.target, a.actor])).toEqual([['votes.discount', 'listing:boost', 'trust-and-safety']]);
    expect(audit[0].after.reason).toBe(REASON);
    expect(audit[0].after.vote_ids.length).toBe(300);

    // A ring account cannot launder its vote by taking it back and voting again: the discounted vote stays.
    const [ringVoter] = await app.sql`select u.id::text from users u join votes v on v.user_id = u.id where v.id = ${voteIds[0]}`;
    expect(await unvote(app.sql, ids.boost, ringVoter.id)).toBe('ok');
    expect((await app.sql`select discount_reason from votes where id = ${voteIds[0]}`)[0].discount_reason).toBe(REASON);

    // Discounting again changes nothing; restoring undoes it all.
    expect((await ops('votes', 'discount', '--ids', voteIds.slice(0, 3).join(','), '--reason', REASON)).code).toBe(1);
    expect((await ops('votes', 'restore', '--ids', voteIds.join(','))).code).toBe(0);
    expect(await awards()).toEqual(['boost', 'orchid', 'maple']);
    expect(await ops('votes', 'discount', '--ids', 'x')).toMatchObject({ code: 2 });
    expect(await ops('votes', 'suspicious', '--week', '2026-02-30')).toMatchObject({ code: 2 });
  }, 120_000);
});

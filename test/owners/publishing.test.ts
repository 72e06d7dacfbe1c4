// The publishing lifecycle on graphile-worker against a homepage on loopback: awaiting_badge until
// our badge is visible, scheduled for its week, back when it is removed, live when the week starts
// (time moved in SQL), and the failure cases ending with a reason.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { page, startOwnerSite, type OwnerSite } from '../owner-site.ts';

const { env, call, until, runJob } = ownersEnv({ worker: true, socket: false });
let site: OwnerSite;
beforeAll(() => {
  site = startOwnerSite();
});
afterAll(() => site?.stop());

const view = async (id: number) => (await call('GET', `/me/listings/${id}`)).body;
const checked = (after: string | null) => (l: any) => l.badge_checked_at !== null && l.badge_checked_at !== after;

/** Runs check_badge now and waits for its result to be written. */
async function checkNow(id: number) {
  const [{ at }] = await env.app.sql`select badge_checked_at as at from listings where id = ${id}`;
  await runJob('check_badge', { listing_id: id });
  return until(
    async () => (await env.app.sql`select badge_checked_at as at from listings where id = ${id}`)[0].at,
    (t: Date | null) => t !== null && t?.getTime() !== at?.getTime(),
    'a badge check',
  ).then(() => view(id));
}

async function queued(url = site.url) {
  // Each case is a product of its own served by the one loopback site; a product has one public
  // listing per site, so the earlier cases' listings leave the directory first.
  await env.app.sql`update listings set status = 'draft', launch_week = null, free_queued_at = null where url = ${url} and status <> 'draft'`;
  const id = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner, url });
  const res = await call('POST', `/me/listings/${id}/free`);
  expect(res.status).toBe(200);
  return { id, badge: res.body.badge.html as string, slug: res.body.slug as string };
}

/** Moves the listing's launch week to this week, as if its Monday had come. */
const weekBegins = (id: number) => env.app.sql`update listings set launch_week = date_trunc('week', now() at time zone 'utc')::date where id = ${id}`;

describe('publishing lifecycle', () => {
  test('awaiting_badge until the badge is visible, scheduled, back when removed, live when the week starts', async () => {
    site.home = page('<h1>Our product</h1>');
    const { id, badge, slug } = await queued();
    let l = await until(() => view(id), checked(null), 'the first badge check');
    expect(l).toMatchObject({ status: 'awaiting_badge', status_reason: 'badge_not_found', next_step: { action: 'place_badge' } });

    site.home = page(`<h1>Our product</h1><footer><div style="display:none">${badge}</div></footer>`);
    l = await checkNow(id);
    expect(l).toMatchObject({ status: 'awaiting_badge', status_reason: 'badge_hidden' });

    site.home = page(`<h1>Our product</h1><footer>${badge}</footer>`);
    l = await checkNow(id);
    expect(l).toMatchObject({ status: 'scheduled', status_reason: null, next_step: { action: 'keep_badge' } });
    const upcoming = await until(
      () => env.app.json(`/launches/weeks/${l.launch_week}`),
      (r) => r.body.items?.some((i: any) => i.listing.slug === slug),
      "the week's upcoming launches",
      10_000,
    );
    expect(upcoming.status).toBe(200);

    site.home = page('<h1>Our product</h1>');
    l = await checkNow(id);
    expect(l).toMatchObject({ status: 'awaiting_badge', status_reason: 'badge_removed', launch_week: l.launch_week });

    site.home = page(`<main>${badge}</main>`);
    expect((await checkNow(id)).status).toBe('scheduled');
    // A redelivered check changes nothing.
    expect((await checkNow(id)).status).toBe('scheduled');

    await weekBegins(id);
    await runJob('sweep_listings');
    l = await until(
      () => view(id),
      (v) => v.status === 'live',
      'live',
    );
    expect(l.launched_at).not.toBeNull();
    const week = await until(
      () => env.app.json('/launches/weeks/this'),
      (r) => r.body.items?.some((i: any) => i.listing.slug === slug),
      'the launch in get_launch_week',
      20_000,
    );
    expect(week.status).toBe(200);
    // Once live, a later go_live or check does nothing, and the badge going away does not unpublish it.
    site.home = page('<h1>Gone</h1>');
    await runJob('go_live', { listing_id: id });
    await runJob('check_badge', { listing_id: id });
    await until(
      async () =>
        (
          await env.app.sql`select count(*)::int as n from graphile_worker.jobs
                            where task_identifier in ('go_live', 'check_badge') and run_at < now() + interval '1 minute'`
        )[0].n,
      (n) => n === 0,
      'go_live and check_badge to run',
    );
    expect((await view(id)).status).toBe('live');
  }, 60_000);

  test('no badge when the week begins: back to draft, the week released, and it can be queued again', async () => {
    site.home = page('<h1>Our product</h1>');
    const { id } = await queued();
    await until(() => view(id), checked(null), 'the first badge check');
    await weekBegins(id);
    await runJob('sweep_listings');
    const l = await until(
      () => view(id),
      (v) => v.status === 'draft',
      'back to draft',
    );
    expect(l).toMatchObject({ status_reason: 'badge_missing_at_launch', launch_week: null, next_step: { action: 'choose_launch' } });
    const again = await call('POST', `/me/listings/${id}/free`);
    expect(again.body.status).toBe('awaiting_badge');
  }, 60_000);

  test('the sweep re-checks a queued listing whose last check is older than the schedule', async () => {
    site.home = page('<h1>Our product</h1>');
    const { id, badge } = await queued();
    await until(() => view(id), checked(null), 'the first badge check');
    site.home = page(badge);
    await env.app.sql`update listings set badge_checked_at = now() - interval '2 hours' where id = ${id}`;
    await runJob('sweep_listings');
    const l = await until(
      () => view(id),
      (v) => v.status === 'scheduled',
      'scheduled by the re-check',
    );
    expect(Date.parse(l.badge_checked_at)).toBeGreaterThan(Date.now() - 60_000);
  }, 60_000);

  test('a site that is down, slow, huge or redirects to a private address ends the check with a reason', async () => {
    const cases: [OwnerSite['mode'], string][] = [
      ['error', 'site_error'],
      ['slow', 'site_unreachable'],
      ['huge', 'site_too_large'],
      ['private_redirect', 'site_refused'],
    ];
    site.home = page('<h1>Our product</h1>');
    const { id } = await queued();
    await until(() => view(id), checked(null), 'the first badge check');
    for (const [mode, reason] of cases) {
      site.mode = mode;
      const l = await checkNow(id);
      expect([mode, l.status, l.status_reason]).toEqual([mode, 'awaiting_badge', reason]);
      expect(l.status_detail).toBeTruthy();
    }
    site.mode = 'ok';
  }, 60_000);
});

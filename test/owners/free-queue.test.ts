// choose_free_listing: who may queue, the same answer on a second call, and no week ever overbooked.
import { beforeAll, describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { makeListing, ownersEnv } from './env.ts';
import { freeListingOperations } from '../../api/operations/free-listing.ts';

const { env, call } = ownersEnv({ socket: false });
const output = freeListingOperations[0].output;
const mondayIn = async (weeks: number) =>
  (await env.app.sql`select to_char(date_trunc('week', now() at time zone 'utc')::date + ${7 * weeks}::int, 'YYYY-MM-DD') as w`)[0].w as string;

let listing = 0;
beforeAll(async () => {
  listing = await makeListing(env.app.sql, { siteId: env.app.siteId, userId: env.userIds.owner });
});

describe('choose_free_listing', () => {
  test('queues a submitted listing in the first week of the window; calling again answers the same state', async () => {
    const res = await call('POST', `/me/listings/${listing}/free`, undefined, 'owner', { 'idempotency-key': 'free-1' });
    expect(res.status).toBe(200);
    conforms(output, res.body);
    expect(res.body).toMatchObject({
      status: 'awaiting_badge',
      status_reason: 'badge_not_checked',
      launch_week: await mondayIn(6),
      next_step: { action: 'place_badge' },
    });
    expect(res.body.badge.html).toContain(`href="${env.app.config.siteUrl}/listings/${res.body.slug}"`);
    const again = await call('POST', `/me/listings/${listing}/free`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'awaiting_badge', launch_week: res.body.launch_week, free_queued_at: res.body.free_queued_at });
    const jobs = await env.app
      .sql`select task_identifier, run_at from graphile_worker.jobs where key in (${`check_badge:${listing}`}, ${`go_live:${listing}`}) order by task_identifier`;
    expect(jobs.map((j) => j.task_identifier)).toEqual(['check_badge', 'go_live']);
    expect(jobs[1].run_at.toISOString()).toBe(`${res.body.launch_week}T00:00:00.000Z`);
  });

  test("409 with a reason code for a listing that cannot join the queue; 404 for another account's", async () => {
    const { sql, siteId } = env.app;
    const cases: [number, string][] = [
      [await makeListing(sql, { siteId, userId: env.userIds.owner, submitted: false }), 'listing_not_submitted'],
      [await makeListing(sql, { siteId, userId: env.userIds.owner, plan: 'paid' }), 'listing_paid'],
      [await makeListing(sql, { siteId, userId: env.userIds.owner, status: 'live' }), 'listing_already_published'],
    ];
    for (const [id, code] of cases) {
      const res = await call('POST', `/me/listings/${id}/free`);
      expect([res.status, res.body.code]).toEqual([409, code]);
    }
    const theirs = await makeListing(sql, { siteId, userId: env.userIds.other });
    expect((await call('POST', `/me/listings/${theirs}/free`)).status).toBe(404);
    expect((await call('POST', `/me/listings/${theirs}/free`, { x: 1 })).status).toBe(400);
    expect((await call('POST', `/me/listings/${listing}/free`, undefined, 'reader')).status).toBe(403);
  });

  test('100 concurrent choices against a 20-slot week: exactly 20 queued, 80 told the queue is full', async () => {
    const { sql, siteId } = env.app;
    const week = await mondayIn(10);
    await sql`update sites set free_queue_min_weeks = 10, free_queue_max_weeks = 10, launch_slots_per_week = 20 where id = ${siteId}`;
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) ids.push(await makeListing(sql, { siteId, userId: env.userIds.owner }));
    const results = await Promise.all(ids.map((id) => call('POST', `/me/listings/${id}/free`)));
    const ok = results.filter((r) => r.status === 200);
    const full = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(20);
    expect(full).toHaveLength(80);
    for (const r of ok) expect(r.body.launch_week).toBe(week);
    for (const r of full) expect(r.body.code).toBe('free_queue_full');
    const [{ n }] = await sql`select count(*)::int as n from listings where site_id = ${siteId} and launch_week = ${week}::date and status <> 'draft'`;
    expect(n).toBe(20);

    // A wider window spills into the next week with room, and still never past 20 a week.
    await sql`update sites set free_queue_max_weeks = 11 where id = ${siteId}`;
    const spill = await Promise.all(
      ids
        .filter((_, i) => results[i].status === 409)
        .slice(0, 30)
        .map((id) => call('POST', `/me/listings/${id}/free`)),
    );
    expect(spill.filter((r) => r.status === 200).map((r) => r.body.launch_week)).toEqual(Array(20).fill(await mondayIn(11)));
    expect(spill.filter((r) => r.status === 409)).toHaveLength(10);
    await sql`update sites set free_queue_min_weeks = 6, free_queue_max_weeks = 8 where id = ${siteId}`;
  }, 60_000);
});

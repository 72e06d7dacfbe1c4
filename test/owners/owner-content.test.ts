// What an owner adds to a listing: updates (followers mailed once each, through the outbox, the
// send_mail job and a real SMTP sink, with a working unsubscribe link), milestones, the founder
// story, and the founder interview.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from './env.ts';
import { startSmtpSink, type SmtpSink } from '../smtp-sink.ts';
import { WebClient } from '../browser.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.stop();
});

const { env, call, until, runJob } = ownersEnv({
  socket: false,
  worker: true,
  env: () => ({ SMTP_URL: sink.url }),
  prepare: async (sql) => {
    await sql`insert into interview_questions (id, position, question) values (1, 1, 'Why?'), (2, 2, 'How?'), (3, 3, 'Retired?')`;
    await sql`update interview_questions set active = false where id = 3`;
  },
});

let live = 0;
let slug = '';
const followers = ['fan1@example.com', 'fan2@example.com', 'fan3@example.com'];
beforeAll(async () => {
  const { sql, siteId } = env.app;
  live = await makeListing(sql, { siteId, userId: env.userIds.owner, status: 'live', name: 'Followed' });
  slug = (await sql`select slug from listings where id = ${live}`)[0].slug;
  for (const email of followers) {
    const u = await findOrCreateUser(sql, email);
    await sql`insert into follows (listing_id, user_id) values (${live}, ${u.id})`;
  }
});

/** Every mail job due now has run (a redelivered one and its retries included): what was to be mailed is in the sink. */
const mailJobsDone = () =>
  until(
    async () =>
      (
        await env.app.sql`select count(*)::int as n from graphile_worker.jobs
                          where task_identifier in ('notify_followers', 'send_mail') and run_at < now() + interval '1 minute'`
      )[0].n,
    (n) => n === 0,
    'the mail jobs to finish',
  );

describe('post_listing_update', () => {
  test('shows on the profile and mails every follower exactly once, even when the job runs again', async () => {
    const res = await call('POST', `/me/listings/${live}/updates`, { title: 'Version 2 is out', body: 'Faster sync.\nDark mode.' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Version 2 is out', followers: 3, published: true });
    const profile = await until(
      () => env.app.json(`/listings/${slug}`),
      (r) => r.body.latest_updates?.length === 1,
      'the update on the profile',
      10_000,
    );
    expect(profile.body.latest_updates[0]).toMatchObject({ title: 'Version 2 is out', body: 'Faster sync.\nDark mode.' });

    for (const to of followers) await sink.waitFor((m) => m.to.includes(to) && m.subject.includes('Version 2 is out'));
    // A redelivered notify job (as after a crash) tells no one twice.
    await runJob('notify_followers', { update_id: res.body.id });
    await runJob('notify_followers', { update_id: res.body.id });
    await mailJobsDone();
    const got = sink.messages.filter((m) => m.subject.includes('Version 2 is out'));
    expect(got.map((m) => m.to[0]).sort()).toEqual(followers);
    expect(got[0].text).toContain('Faster sync.');
    expect(got[0].text).toMatch(/\/unsubscribe\/ldu_[A-Za-z0-9_-]{43}/);
  }, 60_000);

  test('the unsubscribe link works without signing in, only by its button, and stops later mail', async () => {
    const mail = sink.messages.find((m) => m.to.includes('fan1@example.com'))!;
    const path = new URL(/https?:\/\/\S+\/unsubscribe\/ldu_[A-Za-z0-9_-]{43}/.exec(mail.text)![0]).pathname;
    const browser = new WebClient(env.app.url, env.app.fetch);
    const shown = await browser.get(path);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Unsubscribe');
    const csrf = await browser.csrf(path);
    const done = await browser.post(path, { csrf });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('gets no more update mail');
    expect((await new WebClient(env.app.url, env.app.fetch).get('/unsubscribe/ldu_nope')).status).toBe(404);

    // A day later (followers get at most one update mail a day per listing).
    await env.app.sql`update update_notifications set created_at = created_at - interval '1 day' where listing_id = ${live}`;
    const res = await call('POST', `/me/listings/${live}/updates`, { title: 'Version 3', body: 'Even faster.' });
    expect(res.body.followers).toBe(2);
    await sink.waitFor((m) => m.to.includes('fan2@example.com') && m.subject.includes('Version 3'));
    await sink.waitFor((m) => m.to.includes('fan3@example.com') && m.subject.includes('Version 3'));
    await mailJobsDone();
    expect(sink.messages.some((m) => m.to.includes('fan1@example.com') && m.subject.includes('Version 3'))).toBe(false);
  }, 60_000);

  test('a follower gets at most one mail a day per listing: later updates of the day come together in the next one', async () => {
    const fan = 'fan2@example.com';
    const mails = async () => env.app.sql<{ subject: string; body_text: string }[]>`
      select subject, body_text from mail_outbox where kind = 'listing_update' and to_address = ${fan} order by id`;
    await env.app.sql`update update_notifications set created_at = created_at - interval '1 day' where listing_id = ${live}`;
    const before = (await mails()).length;
    const first = await call('POST', `/me/listings/${live}/updates`, { title: 'Morning news', body: 'One.' });
    await until(mails, (m) => m.length === before + 1, 'the first mail of the day');
    const second = await call('POST', `/me/listings/${live}/updates`, { title: 'Noon news', body: 'Two.' });
    const third = await call('POST', `/me/listings/${live}/updates`, { title: 'Evening news', body: 'Three.' });
    // Both jobs ran and deferred: the follower is not mailed again today.
    const deferred = async () =>
      env.app.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'notify_followers' and run_at > now() + interval '1 hour'`;
    await until(deferred, (r) => r[0].n >= 2, 'the digest scheduled for tomorrow');
    expect((await mails()).length).toBe(before + 1);
    expect(first.status).toBe(201);

    // Tomorrow: one mail with both waiting updates.
    await env.app.sql`update update_notifications set created_at = created_at - interval '1 day' where listing_id = ${live}`;
    await runJob('notify_followers', { update_id: second.body.id });
    const all = await until(mails, (m) => m.length === before + 2, 'the digest');
    expect(all.at(-1)!.subject).toContain('2 updates');
    expect(all.at(-1)!.body_text).toContain('Noon news');
    expect(all.at(-1)!.body_text).toContain('Evening news');
    await runJob('notify_followers', { update_id: third.body.id });
    const due = async () =>
      (await env.app.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'notify_followers' and run_at <= now()`)[0].n;
    await until(due, (n) => n === 0, 'the due notify jobs to finish');
    expect((await mails()).length).toBe(before + 2);
  }, 60_000);

  test('bounds, other accounts, and 20 concurrent retries of one Idempotency-Key: one update', async () => {
    for (const body of [
      { title: '', body: 'x' },
      { title: 'x'.repeat(201), body: 'x' },
      { title: 't', body: 'x'.repeat(5001) },
      { title: 't' },
      { title: 't', body: 'b', html: 'x' },
    ]) {
      expect((await call('POST', `/me/listings/${live}/updates`, body)).status).toBe(400);
    }
    expect((await call('POST', `/me/listings/${live}/updates`, { title: 't', body: 'b' }, 'other')).status).toBe(404);
    const key = `update-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', `/me/listings/${live}/updates`, { title: 'Once only', body: 'One effect.' }, 'owner', { 'idempotency-key': key }),
      ),
    );
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    const [{ n }] = await env.app.sql`select count(*)::int as n from listing_updates where listing_id = ${live} and title = 'Once only'`;
    expect(n).toBe(1);
  }, 60_000);
});

describe('milestones and the founder story', () => {
  test('add (https only) and delete a milestone; public only where unlocked', async () => {
    for (const body of [
      { date: '2024-02-30', title: 'x' },
      { date: '2024-01-01', title: 'x', url: 'http://example.com' },
      { date: '2024-01-01', title: '' },
      { date: '2024-01-01', title: 'x', colour: 1 },
    ]) {
      expect((await call('POST', `/me/listings/${live}/milestones`, body)).status).toBe(400);
    }
    const made = await call('POST', `/me/listings/${live}/milestones`, { date: '2024-01-15', title: '1,000 users', url: 'https://blog.example/1000' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ date: '2024-01-15', title: '1,000 users', published: false });
    expect((await env.app.json(`/listings/${slug}`)).body.milestones).toBeNull();
    await env.app.sql`update listings set unlocked_sections = '{milestones,story}' where id = ${live}`;
    await env.app.sql`select directory_changed()`;
    await until(
      () => env.app.json(`/listings/${slug}`),
      (r) => r.body.milestones?.length === 1,
      'the milestone on the profile',
      10_000,
    );
    expect((await call('DELETE', `/me/listings/${live}/milestones/${made.body.id}`, undefined, 'other')).status).toBe(404);
    expect((await call('DELETE', `/me/listings/${live}/milestones/${made.body.id}`)).body).toEqual({ id: made.body.id, deleted: true });
    expect((await call('DELETE', `/me/listings/${live}/milestones/${made.body.id}`)).status).toBe(404);
  });

  test('set_founder_story replaces the story, within its bounds, and publishes it where unlocked', async () => {
    expect((await call('PUT', `/me/listings/${live}/story`, { title: 'x'.repeat(201) })).status).toBe(400);
    expect((await call('PUT', `/me/listings/${live}/story`, { story: 'x'.repeat(8001) })).status).toBe(400);
    expect((await call('PUT', `/me/listings/${live}/story`, { moral: 'x' })).status).toBe(400);
    const res = await call('PUT', `/me/listings/${live}/story`, { title: 'How we started', story: 'In a garage.', lessons: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sections: { title: 'How we started', story: 'In a garage.' }, published: true });
    const p = await until(
      () => env.app.json(`/listings/${slug}`),
      (r) => r.body.story?.title === 'How we started',
      'the story on the profile',
      10_000,
    );
    expect(p.body.story.lessons).toBeNull();
    const cleared = await call('PUT', `/me/listings/${live}/story`);
    expect(cleared.body).toMatchObject({ sections: {}, updated_at: null });
  });
});

describe('answer_interview', () => {
  test('question ids must exist; answering again replaces', async () => {
    const bad = await call('PUT', '/me/interview', {
      answers: [
        { question_id: 1, answer: 'Because.' },
        { question_id: 99, answer: 'x' },
        { question_id: 3, answer: 'x' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['answers[1].question_id', 'answers[2].question_id']);
    expect((await call('PUT', '/me/interview', { answers: Array(31).fill({ question_id: 1, answer: 'x' }) })).status).toBe(400);
    expect((await call('PUT', '/me/interview', { answers: [{ question_id: 1, answer: 'x'.repeat(4001) }] })).status).toBe(400);
    expect((await call('PUT', '/me/interview', { answers: [{ question_id: 1, answer: '   ' }] })).status).toBe(400);
    const first = await call('PUT', '/me/interview', {
      answers: [
        { question_id: 1, answer: 'Because.' },
        { question_id: 2, answer: 'Slowly.' },
      ],
    });
    expect(first.status).toBe(200);
    const again = await call('PUT', '/me/interview', { answers: [{ question_id: 2, answer: 'Quickly.' }] });
    expect(again.body.items.map((i: any) => [i.question_id, i.answer])).toEqual([
      [1, 'Because.'],
      [2, 'Quickly.'],
    ]);
  });
});

// The whole owner journey through the real HTTP stack, the worker and real local parts:
// submit_listing -> ready -> submit_draft -> choose_free_listing -> badge placed -> scheduled ->
// the week starts (time moved in SQL) -> live in get_launch_week -> post_listing_update -> the
// follower's mail arrives at the SMTP sink.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { ownersEnv } from './env.ts';
import { startFixtureSite, type FixtureSite } from '../fixture-site.ts';
import { startSmtpSink, type SmtpSink } from '../smtp-sink.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';

let sink: SmtpSink;
let site: FixtureSite;
let badge = '';
beforeAll(async () => {
  sink = await startSmtpSink();
  site = startFixtureSite({ extraHome: () => badge });
});
afterAll(async () => {
  site?.stop();
  await sink?.stop();
});

const { env, call, until, runJob } = ownersEnv({ worker: true, socket: false, env: () => ({ SMTP_URL: sink.url }) });

test('from a URL to a live launch whose updates reach followers', async () => {
  const made = await call('POST', '/drafts', { url: site.url }, 'owner', { 'idempotency-key': 'journey' });
  expect(made.status).toBe(201);
  const draft = await until(
    async () => (await call('GET', `/drafts/${made.body.id}`)).body,
    (d) => d.status === 'ready' || d.status === 'failed',
    'a ready draft',
    60_000,
  );
  expect(draft.status).toBe('ready');

  const submitted = await call('POST', `/drafts/${draft.id}/submit`);
  expect(submitted.status).toBe(200);
  const id = submitted.body.listing_id;
  expect((await call('GET', `/me/listings/${id}`)).body).toMatchObject({ status: 'draft', submitted: true, next_step: { action: 'choose_launch' } });

  const queued = await call('POST', `/me/listings/${id}/free`);
  expect(queued.status).toBe(200);
  expect(queued.body.status).toBe('awaiting_badge');
  const slug = queued.body.slug;

  badge = queued.body.badge.html; // the owner pastes the embed code into the homepage
  await runJob('check_badge', { listing_id: id });
  const scheduled = await until(
    async () => (await call('GET', `/me/listings/${id}`)).body,
    (l) => l.status === 'scheduled',
    'scheduled',
  );
  const upcoming = await env.app.json(`/launches/weeks/${scheduled.launch_week}`);
  expect(upcoming.body.items.map((i: any) => i.listing.slug)).toContain(slug);

  const fan = await findOrCreateUser(env.app.sql, 'journey-fan@example.com');
  await env.app.sql`insert into follows (listing_id, user_id) values (${id}, ${fan.id})`;

  // Monday 00:00 UTC of its week: moved in SQL, then the sweep the worker runs on its schedule.
  await env.app.sql`update listings set launch_week = date_trunc('week', now() at time zone 'utc')::date where id = ${id}`;
  await runJob('sweep_listings');
  await until(
    async () => (await call('GET', `/me/listings/${id}`)).body,
    (l) => l.status === 'live',
    'live',
  );
  const week = await until(
    () => env.app.json('/launches/weeks/this'),
    (r) => r.body.items?.some((i: any) => i.listing.slug === slug),
    'the launch in get_launch_week',
    20_000,
  );
  expect(week.status).toBe(200);

  const posted = await call('POST', `/me/listings/${id}/updates`, { title: 'We are live', body: 'Thanks for following.' });
  expect(posted.status).toBe(201);
  // A follower from before the launch is told once at launch, then gets each update.
  const launched = await sink.waitFor((m) => m.to.includes('journey-fan@example.com') && m.subject.includes('launched'));
  expect(launched.text).toContain(`/listings/${slug}`);
  const mail = await sink.waitFor((m) => m.to.includes('journey-fan@example.com') && m.subject.includes('We are live'));
  expect(mail.subject).toContain('We are live');
  expect(mail.text).toContain('Thanks for following.');
}, 120_000);

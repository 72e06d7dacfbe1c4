// Operators' batch re-crawl (npm run ops -- recrawl) end to end: the edge on a real port, the
// operator command running the batch's jobs through graphile-worker, owner websites on loopback.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeListing, ownersEnv } from '../owners/env.ts';
import { startFixtureSite, type FixtureSite } from '../fixture-site.ts';
import { selectListings } from '../../core/recrawl/batches.ts';
import { runOpsCommand } from '../ops.ts';

const { env, call } = ownersEnv({ socket: false });

let siteA: FixtureSite;
let siteB: FixtureSite;
let seeded = 0; // live, no draft, category "notes": tagline, features and city are the AI's; short_description edited by the owner
let drafted = 0; // live, a draft whose tagline the owner edited
let sameHost = 0; // live, another listing on siteA's host
let hidden = 0; // status draft, on siteB
let categoryId = 0;

async function ops(...argv: string[]) {
  const r = await runOpsCommand(argv, { sql: env.app.sql, actor: 'test', config: env.app.config, databaseUrl: env.app.databaseUrl, tty: false });
  return { code: r.code, lines: r.out, errors: r.err };
}
const batchIdOf = (lines: string[]) => /recrawl batch ([0-9a-f-]{36})/.exec(lines.join('\n'))![1];

beforeAll(async () => {
  siteA = startFixtureSite({ name: 'Lumen Notes' });
  siteB = startFixtureSite({ name: 'Quill Notes' });
  const { sql, siteId } = env.app;
  const [c] = await sql<{ id: number }[]>`insert into categories (slug, name) values ('recrawl-notes', 'Recrawl notes') returning id`;
  categoryId = c.id;
  seeded = await makeListing(sql, { siteId, userId: env.userIds.owner, url: siteA.url, name: 'Lumen Notes', status: 'live', submitted: false });
  await sql`update listings set tagline = 'An old tagline', city = 'Atlantis', features = ${['Link every note to its source', 'Offline mode']},
            short_description = 'Seeded summary' where id = ${seeded}`;
  await sql`insert into listing_categories (listing_id, category_id, is_primary) values (${seeded}, ${categoryId}, true)`;
  drafted = await makeListing(sql, { siteId, userId: env.userIds.owner, url: siteB.url, name: 'Quill Notes', status: 'live' });
  await sql`update listings set tagline = 'Quill, as its owner puts it' where id = ${drafted}`;
  await sql`update drafts set fields = ${sql.json({ tagline: { value: 'Quill, as its owner puts it', state: 'edited', evidence: [], ai: null } } as never)}
            where listing_id = ${drafted}`;
  sameHost = await makeListing(sql, { siteId, userId: env.userIds.other, url: `${siteA.url}?second`, name: 'Lumen Two', status: 'live' });
  hidden = await makeListing(sql, { siteId, userId: env.userIds.other, url: `${siteB.url}?hidden`, name: 'Quill Draft' });
  // The owner edits one field of the seeded listing: from now on it is theirs.
  const edit = await call('PATCH', `/me/listings/${seeded}`, { fields: { short_description: 'Written by the owner' } });
  expect(edit.status).toBe(200);
});
afterAll(() => {
  siteA?.stop();
  siteB?.stop();
});

describe('ops recrawl', () => {
  test('selectors pick the right listings', async () => {
    const { sql, siteId } = env.app;
    const ids = async (s: Parameters<typeof selectListings>[2]) =>
      (await selectListings(sql, siteId, s)).map((l) => l.id).filter((id) => [seeded, drafted, sameHost, hidden].includes(id));
    expect(await ids({ all: true })).toEqual([seeded, drafted, sameHost]);
    expect(await ids({ status: 'draft' })).toEqual([hidden]);
    expect(await ids({ category: 'recrawl-notes' })).toEqual([seeded]);
    expect(await ids({ ids: [drafted, hidden] })).toEqual([drafted, hidden]);
    const [slug] = await sql<{ slug: string }[]>`select slug from listings where id = ${sameHost}`;
    expect(await ids({ slugs: [slug.slug] })).toEqual([sameHost]);
    await sql`update listings set last_crawled_at = '2026-01-10' where id = ${drafted}`;
    expect(await ids({ all: true, crawledBefore: '2026-01-01T00:00:00Z' })).toEqual([seeded, sameHost]);
    await sql`update listings set last_crawled_at = null where id = ${drafted}`;
    expect((await ops('recrawl')).code).toBe(2);
    expect((await ops('recrawl', '--all', '--concurrency', '0')).code).toBe(2);
  });

  test('re-running the command adds no duplicate jobs; one queue per host; status and cancel', async () => {
    const first = await ops('recrawl', '--all', '--detach');
    expect(first.code).toBe(0);
    const again = await ops('recrawl', '--all', '--detach');
    expect(again.lines.join('\n')).toContain('0 listings queued (3 selected)');
    expect(again.lines.join('\n')).toContain('3 already waiting');
    const batch = batchIdOf(first.lines);
    const jobs = await env.app.sql<{ key: string; queue_name: string }[]>`
      select key, queue_name from graphile_worker.jobs where task_identifier = 'recrawl_listing' order by key`;
    expect(jobs).toHaveLength(3);
    const queueOf = (id: number) => jobs.find((j) => j.key === `recrawl_listing:${id}`)!.queue_name;
    expect(queueOf(seeded)).toBe(queueOf(sameHost)); // one host, one queue: one job at a time
    expect(queueOf(seeded)).toBe(`recrawl:${new URL(siteA.url).host}`);
    expect(queueOf(drafted)).not.toBe(queueOf(seeded));

    const status = await ops('recrawl', 'status', batch, '--once');
    expect(status.lines[0]).toContain('0/3 (0%)');
    const cancelled = await ops('recrawl', 'cancel', batch);
    expect(cancelled.lines[0]).toContain('3 waiting listings');
    expect((await ops('recrawl', 'status', batch, '--once')).lines[0]).toMatch(/3\/3 \(100%\).*cancelled 3.*\(cancelled\)/);
    const [{ n }] = await env.app.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'recrawl_listing'`;
    expect(n).toBe(0);
    expect((await ops('recrawl', 'cancel', '00000000-0000-0000-0000-000000000000')).code).toBe(1);
  });

  test('a batch runs to 100%: AI fields refreshed, owner fields proposed, vanished facts flagged', async () => {
    const run = await ops('recrawl', '--all', '--concurrency', '2', '--interval', '1');
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.lines.at(-1)).toMatch(/3\/3 \(100%\) done 3, failed 0/);
    // Non-TTY mode: plain progress lines, the last one at 100%.
    expect(run.lines.every((line) => line.startsWith('recrawl batch') || line.startsWith('batch '))).toBe(true);
    // One host, one job at a time: siteA's two listings were crawled one after the other (with two
    // jobs running at once), so the first crawl read all its pages before the second read robots.txt.
    const robots = siteA.hits.flatMap((h, i) => (h === '/robots.txt' ? [i] : []));
    expect(robots.length).toBe(2);
    expect(siteA.hits.slice(robots[0], robots[1])).toEqual(expect.arrayContaining(['/about', '/pricing', '/faq', '/contact']));
    const { sql } = env.app;
    const [l] = await sql`select tagline, city, features, short_description, last_crawled_at, not_found_on_website from listings where id = ${seeded}`;
    expect(l.tagline).toBe('Private note-taking for research teams'); // the AI's: refreshed
    expect(l.short_description).toBe('Written by the owner'); // the owner's: kept
    expect(l.city).toBe('Atlantis'); // vanished from the site: kept, flagged
    expect(l.features).toContain('Offline mode');
    expect(l.last_crawled_at).not.toBeNull();
    expect(Array.isArray(l.not_found_on_website)).toBe(true);
    const [refreshed] = await sql`select evidence from listing_findings where listing_id = ${seeded} and field = 'tagline' and kind = 'refreshed'`;
    expect(refreshed.evidence.length).toBeGreaterThan(0);

    const view = await call('GET', `/me/listings/${seeded}`);
    expect(view.status).toBe(200);
    const proposal = view.body.proposed_changes.find((p: any) => p.field === 'short_description');
    expect(proposal.value).toContain('private note-taking app');
    expect(proposal.evidence.length).toBeGreaterThan(0);
    expect(view.body.vanished).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'city', value: 'Atlantis' }),
        expect.objectContaining({ field: 'features', value: ['Offline mode'] }),
      ]),
    );

    // The draft's edited tagline is the owner's: proposed, not written.
    const [d] = await sql`select tagline from listings where id = ${drafted}`;
    expect(d.tagline).toBe('Quill, as its owner puts it');
    const other = await call('GET', `/me/listings/${drafted}`);
    expect(other.body.proposed_changes.map((p: any) => p.field)).toContain('tagline');

    // Accepting: the owner sends the proposed value; the proposal is gone.
    const accept = await call('PATCH', `/me/listings/${seeded}`, { fields: { short_description: proposal.value, city: 'Atlantis' } });
    expect(accept.status).toBe(200);
    expect(accept.body.fields.short_description).toBe(proposal.value);
    const after = await call('GET', `/me/listings/${seeded}`);
    expect(after.body.proposed_changes.map((p: any) => p.field)).not.toContain('short_description');
    expect(after.body.vanished.map((v: any) => v.field)).not.toContain('city');

    // Nothing waits any more: the same command queues nothing new and ends at once.
    const rerun = await ops('recrawl', '--ids', String(seeded), '--detach');
    expect(rerun.lines[0]).toContain('1 listings queued');
    const done = await ops('recrawl', 'status', batchIdOf(rerun.lines), '--interval', '1');
    expect(done.lines.at(-1)).toMatch(/1\/1 \(100%\)/);
    // A second re-crawl: the accepted value matches the site, so nothing is proposed for it; city
    // was re-sent unchanged (no version recorded), so it is still the AI's and flagged again.
    const second = (await call('GET', `/me/listings/${seeded}`)).body;
    expect(second.proposed_changes.map((p: any) => p.field)).not.toContain('short_description');
    expect(second.vanished.map((v: any) => v.field)).toContain('city');
  });
});

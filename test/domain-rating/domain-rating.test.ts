// Domain Ratings from the two sources only: the HTTP provider (a local server speaking Ahrefs' v3
// JSON, with a concurrency bound it can observe) and `ops dr import FILE.csv`; history is kept and
// the public profile shows what they recorded.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../harness.ts';
import { makeListing } from '../owners/env.ts';
import { loadConfig } from '../../core/config.ts';
import { domainRatingProvider } from '../../core/domain-rating/index.ts';
import { httpDomainRatingProvider } from '../../core/domain-rating/provider.ts';
import { refreshDomainRatings } from '../../core/domain-rating/refresh.ts';
import { runOps } from '../../pipeline/ops/run.ts';

let app: TestApp;
const ratings = new Map<string, number | 'broken' | 'missing'>();
let inFlight = 0;
let maxInFlight = 0;
// The provider holds its answers until three requests are open at once (then answers all, from then
// on at once), so the concurrency bound is seen reached, not hoped for; set by the refresh test.
let overlap: ReturnType<typeof Promise.withResolvers<void>> | null = null;
const seen: { target: string; date: string; auth: string | null }[] = [];
const provider = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const url = new URL(req.url);
    const target = url.searchParams.get('target') ?? '';
    seen.push({ target, date: url.searchParams.get('date') ?? '', auth: req.headers.get('authorization') });
    if (req.headers.get('authorization') !== 'Bearer dr-key') return Response.json({ error: 'bad key' }, { status: 401 });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (overlap) {
      if (inFlight >= 3) overlap.resolve();
      await overlap.promise;
    }
    inFlight--;
    const r = ratings.get(target);
    if (r === 'broken') return new Response('oops', { status: 500 });
    if (r === undefined || r === 'missing') return Response.json({ domain_rating: null });
    return Response.json({ domain_rating: { domain_rating: r, ahrefs_rank: 1234 } });
  },
});
const providerUrl = `http://127.0.0.1:${provider.port}/v3/site-explorer/domain-rating`;
const ids: number[] = [];

beforeAll(async () => {
  app = await startTestApp({ socket: false });
  for (let i = 0; i < 12; i++) ids.push(await makeListing(app.sql, { siteId: app.siteId, userId: null, url: `https://rated${i}.example/`, status: 'live' }));
  await makeListing(app.sql, { siteId: app.siteId, userId: null, url: 'https://draft-only.example/', status: 'draft' });
}, 120_000);
afterAll(async () => {
  provider.stop(true);
  await app?.stop();
});

const ops = async (...argv: string[]) => {
  const lines: string[] = [];
  const code = await runOps(argv, { sql: app.sql, out: (l) => lines.push(l), err: (l) => lines.push(l), actor: 'test' });
  return { code, text: lines.join('\n') };
};
const profileRating = async (id: number) => {
  const [{ slug }] = await app.sql`select slug from listings where id = ${id}`;
  return (await app.json(`/listings/${slug}`)).body.domain_rating;
};

describe('Domain Rating provider', () => {
  test('the provider is chosen by configuration: none without DR_PROVIDER_KEY', () => {
    expect(domainRatingProvider(loadConfig({}))).toBeNull();
    expect(domainRatingProvider(loadConfig({ DR_PROVIDER_KEY: 'k', DR_PROVIDER_URL: providerUrl }))).not.toBeNull();
  });

  test('the monthly refresh asks for every live domain, at most N at a time, and keeps the history', async () => {
    for (let i = 0; i < 12; i++) ratings.set(`rated${i}.example`, i === 3 ? 'broken' : i === 4 ? 'missing' : 40 + i + 0.4);
    // An older measurement stays beside the new one.
    const [{ company_id }] = await app.sql`select company_id from listings where id = ${ids[0]}`;
    await app.sql`insert into domain_ratings (company_id, measured_on, rating, source) values (${company_id}, current_date - 40, 30, 'provider')`;
    overlap = Promise.withResolvers();
    const r = await refreshDomainRatings(app.sql, httpDomainRatingProvider({ url: providerUrl, key: 'dr-key' }), 3);
    overlap = null;
    expect(r).toMatchObject({ domains: 12, rated: 10, failed: 1 });
    expect(r.errors[0]).toContain('500');
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(seen.every((s) => s.auth === 'Bearer dr-key' && /^\d{4}-\d{2}-\d{2}$/.test(s.date))).toBe(true);
    expect(seen.map((s) => s.target)).not.toContain('draft-only.example');
    const history = await app.sql`select rating, source from domain_ratings where company_id = ${company_id} order by measured_on`;
    expect(history.map((h) => [h.rating, h.source])).toEqual([
      [30, 'provider'],
      [40, 'provider'],
    ]);
    const [run] = await app.sql`select domains, rated, failed, finished_at from domain_rating_runs order by id desc limit 1`;
    expect(run).toMatchObject({ domains: 12, rated: 10, failed: 1 });
    expect(run.finished_at).not.toBeNull();
    // The public profile (read for the first time here, so not from a cache) shows the provider's figure.
    expect((await profileRating(ids[1])).rating).toBe(41);
  });

  test('a wrong key or a nonsense answer is an error for that domain, never a rating', async () => {
    await expect(httpDomainRatingProvider({ url: providerUrl, key: 'wrong' }).rating('rated1.example', '2026-11-01')).rejects.toThrow('401');
    ratings.set('weird.example', 140);
    await expect(httpDomainRatingProvider({ url: providerUrl, key: 'dr-key' }).rating('weird.example', '2026-11-01')).rejects.toThrow('0 to 100');
  });
});

describe('ops dr import', () => {
  test('imports a CSV for known domains, reports unknown ones; a bad row imports nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dr-'));
    const good = join(dir, 'good.csv');
    await writeFile(
      good,
      'domain,rating,measured_on\nrated5.example,77,2026-10-01\nhttps://www.rated6.example/,12.6,2026-10-01\nnobody.example,50,2026-10-01\n',
    );
    const r = await ops('dr', 'import', good);
    expect(r.code).toBe(0);
    expect(r.text).toContain('imported 2 of 3');
    expect(r.text).toContain('nobody.example');
    const rows = await app.sql`select l.id::int, d.rating, d.source from domain_ratings d join listings l on l.company_id = d.company_id
                               where d.measured_on = '2026-10-01' order by l.id`;
    expect(rows.map((x) => [x.id, x.rating, x.source])).toEqual([
      [ids[5], 77, 'import'],
      [ids[6], 13, 'import'],
    ]);
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, 'domain,rating,measured_on\nrated7.example,101,2026-10-02\nrated8.example,5,yesterday\n');
    const refused = await ops('dr', 'import', bad);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('line 2: rating');
    expect(refused.text).toContain('line 3: measured_on');
    expect((await app.sql`select 1 from domain_ratings where measured_on = '2026-10-02'`).length).toBe(0);
    expect((await ops('dr', 'import')).code).toBe(2);
  });

  test('no rating can come from anywhere else: the source is checked by the database', async () => {
    const [{ company_id }] = await app.sql`select company_id from listings where id = ${ids[9]}`;
    await expect(
      app.sql`insert into domain_ratings (company_id, measured_on, rating, source) values (${company_id}, '2026-01-01', 5, 'guess')`,
    ).rejects.toThrow();
    // Rows written without a source (the demo seed's) count as an import.
    await app.sql`insert into domain_ratings (company_id, measured_on, rating) values (${company_id}, '2026-01-01', 5)`;
    const [row] = await app.sql`select source from domain_ratings where company_id = ${company_id} and measured_on = '2026-01-01'`;
    expect(row.source).toBe('import');
  });
});

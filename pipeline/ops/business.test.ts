import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadReferenceData } from '../../seeds/reference.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { eventually } from '../../test/eventually.ts';
import { runOpsCommand } from '../../test/ops.ts';

// Operator commands for prices and site settings, seen through the public API, with their audit.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    env: { CACHE_TTL_SECONDS: '60' },
    prepare: async (sql, siteId) => {
      await loadReferenceData(sql, siteId);
    },
  });
});
afterAll(() => app.stop());

const ops = (...argv: string[]) => runOpsCommand(argv, { sql: app.sql, actor: 'olga' });

const launchPrice = async () => {
  const { body } = await app.json<{ items: { code: string; price: { amount_cents: number } | null }[] }>('/products');
  return body.items.find((p) => p.code === 'launch')!.price?.amount_cents;
};

describe('price set', () => {
  test('a price valid now shows in list_products at once (the cache is invalidated); a future one only once valid; both audited', async () => {
    expect(await launchPrice()).toBeGreaterThan(0);
    const now = await ops('price', 'set', '--product', 'launch', '--amount', '4321');
    expect(now.code).toBe(0);
    expect(now.stdout).toContain('launch 43.21 USD');
    expect(await eventually(launchPrice, (v) => v === 4321)).toBe(4321);

    const later = await ops('price', 'set', '--product', 'launch', '--amount', '9999', '--from', '2099-01-05');
    expect(later.code).toBe(0);
    expect(await launchPrice()).toBe(4321);
    const list = await ops('price', 'list');
    expect(list.stdout).toMatch(/launch\t43\.21 USD\tcurrent/);
    expect(list.stdout).toMatch(/launch\t99\.99 USD\tfrom 2099-01-05/);
    // Time passes (moved in SQL, not slept): the scheduled price becomes the current one.
    await app.sql`update product_prices set valid_from = valid_from - ('2099-01-06'::timestamptz - now())`;
    await app.sql`select directory_changed()`;
    expect(await eventually(launchPrice, (v) => v === 9999)).toBe(9999);

    const audit = await ops('audit', '--target', 'product:launch');
    expect(audit.stdout).toContain('olga\tprice.set\tproduct:launch');
    expect(audit.stdout).toContain('"amount_cents":4321');
  });

  test('bad usage is exit 2 with the reason; an unknown product is exit 1; nothing is stored', async () => {
    const [{ n: before }] = await app.sql`select count(*)::int as n from product_prices`;
    for (const argv of [
      ['price', 'set', '--amount', '100'],
      ['price', 'set', '--product', 'launch'],
      ['price', 'set', '--product', 'launch', '--amount', '-5'],
      ['price', 'set', '--product', 'launch', '--amount', '1.5'],
      ['price', 'set', '--product', 'launch', '--amount', '100', '--from', 'tomorrow'],
      ['price', 'set', '--product', 'launch', '--amount', '100', '--currency', 'dollars'],
      ['price', 'bump'],
    ]) {
      const r = await ops(...argv);
      expect([argv, r.code]).toEqual([argv, 2]);
      expect(r.stderr).toStartWith('ops: ');
    }
    const unknown = await ops('price', 'set', '--product', 'nope', '--amount', '100');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no product "nope"');
    const [{ n: after }] = await app.sql`select count(*)::int as n from product_prices`;
    expect(after).toBe(before);
  });
});

describe('site set', () => {
  test('changes the free queue window and weekly slots, audited with before and after; an inverted window is refused', async () => {
    const r = await ops('site', 'set', '--free-queue-min-weeks', '3', '--free-queue-max-weeks', '5', '--launch-slots-per-week', '12');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('free queue 3-5 weeks out, 12 launch slots a week');
    const [site] = await app.sql`select free_queue_min_weeks, free_queue_max_weeks, launch_slots_per_week from sites where is_self`;
    expect(site).toEqual({ free_queue_min_weeks: 3, free_queue_max_weeks: 5, launch_slots_per_week: 12 });
    const bad = await ops('site', 'set', '--free-queue-min-weeks', '9');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must not be above its maximum');
    expect((await ops('site', 'set')).code).toBe(2);
    const audit = await ops('audit', '--target', 'site:main');
    expect(audit.stdout).toContain('olga\tsite.set\tsite:main');
    expect(audit.stdout).toContain('"free_queue_min_weeks":6');
    expect(audit.stdout).toContain('"free_queue_min_weeks":3');
    expect((await ops('site', 'show')).stdout).toContain('3-5 weeks');
  });
});

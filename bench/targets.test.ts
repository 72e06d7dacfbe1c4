import { describe, expect, test } from 'bun:test';
import { judgeTargets, type Row } from './targets.ts';

const row = (name: string, rps: number, p99 = 10, peak = 0): Row => ({ name, rps, p99, peak });

describe('judgeTargets', () => {
  test('judges shares of the ceiling, of another scenario, p99 and memory', () => {
    const rows = [
      row('get_listing', 42_000),
      row('search (typo)', 27_000),
      row('mcp tools/call', 20_000),
      row('cold (cache off): get_listing', 6_999),
      row('long tail: search (one-typo names)', 2_500, 100),
      row('mixed traffic', 3_000, 40, 249),
    ];
    const judged = Object.fromEntries(judgeTargets(rows, 70_000).map((t) => [t.what, t]));
    expect(judged['get_listing >= 60% of the ceiling']).toEqual({ what: 'get_listing >= 60% of the ceiling', value: '60.0%', met: true });
    expect(judged['search (typo) >= 40% of the ceiling']!.met).toBe(false);
    // 20,000 against 42,000 is under half.
    expect(judged['mcp tools/call >= half of get_listing']).toMatchObject({ value: '47.6%', met: false });
    // 6,999 of 70,000 is just under 10%.
    expect(judged['cold (cache off): get_listing >= 10% of the ceiling']).toMatchObject({ value: '10.0%', met: false });
    // 3.6% of the ceiling, but a p99 of 100 ms is not under 100.
    expect(judged['long tail: search (one-typo names) >= 3% of the ceiling, p99 < 100 ms']).toMatchObject({ value: '3.6%, p99 100 ms', met: false });
    expect(judged['mixed traffic: edge RSS peak < 250 MB']).toMatchObject({ value: '249 MB', met: true });
  });

  test('leaves out the targets whose scenarios did not run', () => {
    const judged = judgeTargets([row('leaderboard', 10_000)], 50_000);
    expect(judged.map((t) => t.what)).toEqual(['leaderboard >= 60% of the ceiling']);
    expect(judged[0]!.met).toBe(false);
    expect(judgeTargets([row('mcp tools/call', 10_000)], 50_000)).toEqual([]);
  });
});

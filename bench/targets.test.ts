import { describe, expect, test } from 'bun:test';
import { judgeTargets, type Row } from './targets.ts';

const row = (name: string, rps: number, p99 = 10, peak = 0): Row => ({ name, rps, p99, peak });

describe('judgeTargets', () => {
  test('judges shares of another scenario, of the ceiling, p99 and memory', () => {
    const rows = [
      row('wire floor: get_listing answer replayed', 30_000),
      row('get_listing', 25_500),
      row('mcp tools/call', 15_000),
      row('long tail: get_listing (all slugs)', 6_000),
      row('long tail: listing page (all slugs)', 2_399),
      row('long tail: search (one-typo names)', 2_500, 100),
      row('mixed traffic', 4_200, 40, 249),
    ];
    const judged = Object.fromEntries(judgeTargets(rows, 70_000).map((t) => [t.what, t]));
    // 25,500 of 30,000 is exactly 85%.
    expect(judged['get_listing >= 85% of wire floor: get_listing answer replayed']).toMatchObject({ value: '85.0%', met: true });
    // 15,000 against 25,500 is 58.8%, under 60%.
    expect(judged['mcp tools/call >= 60% of get_listing']).toMatchObject({ value: '58.8%', met: false });
    // 2,399 of 6,000 is just under 40%.
    expect(judged['long tail: listing page (all slugs) >= 40% of long tail: get_listing (all slugs)']!.met).toBe(false);
    // A p99 of 100 ms is not under 100.
    expect(judged['long tail: search (one-typo names) p99 < 100 ms']).toMatchObject({ value: 'p99 100 ms', met: false });
    // 4,200 of 70,000 is exactly 6%.
    expect(judged['mixed traffic >= 6% of the ceiling']).toMatchObject({ value: '6.0%', met: true });
    expect(judged['mixed traffic: edge RSS peak < 250 MB']).toMatchObject({ value: '249 MB', met: true });
  });

  test('leaves out the targets whose scenarios did not run', () => {
    const judged = judgeTargets([row('mixed traffic', 1_000)], 50_000);
    expect(judged.map((t) => t.what)).toEqual(['mixed traffic >= 6% of the ceiling']);
    expect(judged[0]!.met).toBe(false);
    // get_listing without its wire floor is not judged; MCP against it is.
    expect(judgeTargets([row('get_listing', 10_000), row('mcp tools/call', 10_000)], 50_000).map((t) => t.what)).toEqual([
      'mcp tools/call >= 60% of get_listing',
    ]);
  });
});

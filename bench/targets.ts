/**
 * The hot path's targets, judged on one run's rows: each is a share of the same run's
 * hello-world ceiling, a share of another scenario, a p99 or a memory peak. A target whose scenario
 * did not run (BENCH_ONLY) is left out rather than judged.
 */
export interface Row {
  name: string;
  rps: number;
  p99: number;
  peak: number;
}

interface Target {
  what: string;
  scenario: string;
  judge: (row: Row, rows: Map<string, Row>, ceiling: number) => { value: string; met: boolean } | null;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** At least `share` of the ceiling, and (when given) a p99 under `p99Ms`. */
const ofCeiling = (scenario: string, share: number, p99Ms?: number): Target => ({
  what: `${scenario} >= ${share * 100}% of the ceiling${p99Ms ? `, p99 < ${p99Ms} ms` : ''}`,
  scenario,
  judge: (row, _rows, ceiling) => ({
    value: `${pct(row.rps / ceiling)}${p99Ms ? `, p99 ${row.p99} ms` : ''}`,
    met: row.rps >= share * ceiling && (p99Ms === undefined || row.p99 < p99Ms),
  }),
});

export const TARGETS: Target[] = [
  ofCeiling('get_listing', 0.6),
  ofCeiling('leaderboard', 0.6),
  ofCeiling('launch week', 0.6),
  ofCeiling('search (typo)', 0.4),
  {
    what: 'mcp tools/call >= half of get_listing',
    scenario: 'mcp tools/call',
    judge: (row, rows) => {
      const rest = rows.get('get_listing');
      return rest ? { value: pct(row.rps / rest.rps), met: row.rps >= rest.rps / 2 } : null;
    },
  },
  ofCeiling('cold (cache off): get_listing', 0.1),
  ofCeiling('long tail: get_listing (all slugs)', 0.1),
  ofCeiling('long tail: search (one-typo names)', 0.03, 100),
  ofCeiling('cold (cache off): search (typo)', 0.03, 100),
  ofCeiling('cold (cache off): leaderboard', 0.05),
  ofCeiling('cold (cache off): launch week', 0.05),
  {
    what: 'mixed traffic: edge RSS peak < 250 MB',
    scenario: 'mixed traffic',
    judge: (row) => (row.peak > 0 ? { value: `${row.peak.toFixed(0)} MB`, met: row.peak < 250 } : null),
  },
];

/** Each target whose scenarios ran, with its value in this run and whether it is met. */
export function judgeTargets(rows: Row[], ceiling: number): { what: string; value: string; met: boolean }[] {
  const byName = new Map(rows.map((r) => [r.name, r]));
  const out: { what: string; value: string; met: boolean }[] = [];
  for (const t of TARGETS) {
    const row = byName.get(t.scenario);
    const judged = row && ceiling > 0 ? t.judge(row, byName, ceiling) : null;
    if (judged) out.push({ what: t.what, ...judged });
  }
  return out;
}

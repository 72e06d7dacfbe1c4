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

/** At least `share` of another scenario of the same run (both must have run). */
const ofScenario = (scenario: string, share: number, other: string): Target => ({
  what: `${scenario} >= ${share * 100}% of ${other}`,
  scenario,
  judge: (row, rows) => {
    const base = rows.get(other);
    return base ? { value: pct(row.rps / base.rps), met: row.rps >= share * base.rps } : null;
  },
});

/**
 * Restated against what a server here can reach: a bare server replaying get_listing's own cached
 * answer (the wire floor) reaches 41-45% of the ceiling, so cached reads are judged against that
 * floor, MCP against REST, the page long tail against the API long tail.
 */
export const TARGETS: Target[] = [
  ofScenario('get_listing', 0.85, 'wire floor: get_listing answer replayed'),
  ofScenario('mcp tools/call', 0.6, 'get_listing'),
  ofScenario('long tail: listing page (all slugs)', 0.4, 'long tail: get_listing (all slugs)'),
  {
    what: 'long tail: search (one-typo names) p99 < 100 ms',
    scenario: 'long tail: search (one-typo names)',
    judge: (row) => ({ value: `p99 ${row.p99} ms`, met: row.p99 < 100 }),
  },
  ofCeiling('mixed traffic', 0.06),
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

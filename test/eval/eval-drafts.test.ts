// The drafting evaluation as a test: every fixture site of both sets (tuning and held-out, see
// eval-sites.ts) crawled and drafted through the real pipeline. Nothing may be fabricated, no
// robots.txt rule or off-site link followed, every value quoted, and recall may not fall below
// the level reached (npm run eval:drafts -- -v prints the per-site detail).
import { expect, test } from 'bun:test';
import { report, runEval, totals } from './run-eval.ts';
import type { EvalSet } from './eval-sites.ts';

// The recall each set reaches; lower a floor only with a reason in the commit.
// Tuning fell from 100% when categories, tags and the sites moved over from the held-out set
// were scored; held-out: the bar (85%).
const RECALL_FLOOR: Record<EvalSet, number> = { tuning: 0.9, 'held-out': 0.85 };
const MIN_SITES: Record<EvalSet, number> = { tuning: 24, 'held-out': 12 };

for (const set of ['tuning', 'held-out'] as const) {
  test(`drafts of the ${set} sites invent nothing, follow robots.txt and miss little`, async () => {
    const results = await runEval({ set });
    const t = totals(results);
    if (t.fabricated > 0 || t.robotsViolations > 0 || t.recall < RECALL_FLOOR[set]) console.log(report(results, true));
    expect(results.length).toBeGreaterThanOrEqual(MIN_SITES[set]);
    expect(results.filter((r) => r.error !== null).map((r) => `${r.site}: ${r.error}`)).toEqual([]);
    expect(results.flatMap((r) => r.fabricated.map((f) => `${r.site}: ${f}`))).toEqual([]);
    expect(results.flatMap((r) => r.robotsViolations.map((v) => `${r.site}: ${v}`))).toEqual([]);
    expect(t.recall).toBeGreaterThanOrEqual(RECALL_FLOOR[set]);
    expect(t.coverage).toBe(1);
  }, 120_000);
}

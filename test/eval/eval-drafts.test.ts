// The drafting evaluation as a test: every fixture site under test/fixtures/eval-sites crawled
// and drafted through the real pipeline. Nothing may be fabricated, no robots.txt rule or
// off-site link followed, and recall may not fall below the level reached (npm run
// eval:drafts -- -v prints the per-site detail).
import { expect, test } from 'bun:test';
import { report, runEval, totals } from './run-eval.ts';

// The recall the drafter reaches on these sites; lower it only with a reason in the commit.
const RECALL_FLOOR = 1.0;

test('drafts of the evaluation sites invent nothing, follow robots.txt and miss little', async () => {
  const results = await runEval();
  const t = totals(results);
  if (t.fabricated > 0 || t.robotsViolations > 0 || t.recall < RECALL_FLOOR) console.log(report(results, true));
  expect(results.length).toBeGreaterThanOrEqual(16);
  expect(results.filter((r) => r.error !== null).map((r) => `${r.site}: ${r.error}`)).toEqual([]);
  expect(results.flatMap((r) => r.fabricated.map((f) => `${r.site}: ${f}`))).toEqual([]);
  expect(results.flatMap((r) => r.robotsViolations.map((v) => `${r.site}: ${v}`))).toEqual([]);
  expect(t.recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
  expect(t.coverage).toBe(1);
}, 120_000);

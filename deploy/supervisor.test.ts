import { expect, test } from 'bun:test';
import { RestartPolicy } from './supervisor.ts';

test('restart delays double per crash, reset after a stable run, and a crash loop stops everything', () => {
  const p = new RestartPolicy({ maxCrashes: 5, windowMs: 60_000 });
  p.started('worker', 0);
  expect(p.crashed('worker', 1000)).toBe(1000);
  p.started('worker', 2000);
  expect(p.crashed('worker', 3000)).toBe(2000);
  p.started('worker', 5000);
  expect(p.crashed('worker', 6000)).toBe(4000);
  p.started('edge', 0);
  expect(p.crashed('edge', 7000)).toBe(1000); // delays are per process
  expect(p.crashed('worker', 8000)).toBeNull(); // the fifth crash within a minute, counted over all
});

test('crashes spread out over more than the window are not a loop; a long run resets the delay', () => {
  const p = new RestartPolicy({ maxCrashes: 3, windowMs: 10_000 });
  p.started('edge', 0);
  expect(p.crashed('edge', 1000)).toBe(1000);
  p.started('edge', 2000);
  expect(p.crashed('edge', 2000 + 61_000)).toBe(1000); // ran over a minute: back to one second
  p.started('edge', 64_000);
  expect(p.crashed('edge', 65_000)).toBe(2000);
  expect(p.recentCrashes).toBe(2);
});

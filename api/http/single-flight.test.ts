import { expect, test } from 'bun:test';
import { singleFlight } from './single-flight.ts';

test('concurrent calls of one key share one computation; later calls and other keys compute afresh', async () => {
  const once = singleFlight<number>();
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const compute = async () => {
    runs++;
    await gate;
    return runs;
  };
  const waiting = [once('a', compute), once('a', compute), once('a', compute), once('b', compute)];
  release();
  expect(await Promise.all(waiting)).toEqual([2, 2, 2, 2]);
  expect(runs).toBe(2);
  expect(await once('a', async () => 42)).toBe(42);
});

test('a failure reaches every waiter and is not remembered', async () => {
  const once = singleFlight<string>();
  const boom = async () => {
    await Bun.sleep(1);
    throw new Error('boom');
  };
  const results = await Promise.allSettled([once('k', boom), once('k', boom)]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  expect(await once('k', async () => 'ok')).toBe('ok');
});

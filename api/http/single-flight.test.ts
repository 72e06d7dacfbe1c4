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
    await Promise.resolve();
    throw new Error('boom');
  };
  const results = await Promise.allSettled([once('k', boom), once('k', boom)]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  expect(await once('k', async () => 'ok')).toBe('ok');
});

test('the computation is told to stop only once every waiting client has gone', async () => {
  const once = singleFlight<string>();
  let seen!: AbortSignal;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const compute = async (signal: AbortSignal) => {
    seen = signal;
    await gate;
    return 'done';
  };
  const [a, b] = [new AbortController(), new AbortController()];
  const first = once('k', compute, a.signal);
  const second = once('k', compute, b.signal);
  a.abort();
  expect(seen.aborted).toBe(false);
  b.abort();
  expect(seen.aborted).toBe(true);
  // A request after that starts afresh instead of joining the abandoned computation.
  let runs = 0;
  const fresh = once('k', async () => `fresh ${++runs}`);
  release();
  expect(await Promise.all([first, second, fresh])).toEqual(['done', 'done', 'fresh 1']);
});

test('a waiter without a signal keeps the computation going', async () => {
  const once = singleFlight<string>();
  let seen!: AbortSignal;
  let finish!: () => void;
  const compute = async (signal: AbortSignal) => {
    seen = signal;
    await new Promise<void>((resolve) => {
      finish = resolve;
    });
    return 'kept';
  };
  const gone = new AbortController();
  const results = [once('k', compute, gone.signal), once('k', compute)];
  gone.abort();
  expect(seen.aborted).toBe(false);
  finish();
  expect(await Promise.all(results)).toEqual(['kept', 'kept']);
  // A client already gone when it arrives starts nothing it would wait for.
  const late = new AbortController();
  late.abort();
  let lateSignal!: AbortSignal;
  await once(
    'late',
    async (s) => {
      lateSignal = s;
      return 'x';
    },
    late.signal,
  );
  expect(lateSignal.aborted).toBe(true);
});

/**
 * The one place tests wait. Something another process or connection does (an edge hearing a
 * NOTIFY, a worker taking a job, a query reaching a lock) happens a moment later: tests poll for
 * it here instead of sleeping a fixed time and hoping it was enough. Time a test controls itself
 * (rate limits, cache lifetimes, locked_at) is moved, never waited for.
 */

/** Re-reads until `accept` holds (or about 3 s pass) and returns the last value, for the test's own assertion to judge. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, opts: { tries?: number; everyMs?: number } = {}): Promise<T> {
  let value = await read();
  for (let i = 0; i < (opts.tries ?? 60) && !accept(value); i++) {
    await Bun.sleep(opts.everyMs ?? 50);
    value = await read();
  }
  return value;
}

/**
 * The opposite: re-reads for a while (about 0.3 s by default) and returns the first value for
 * which `keep` no longer holds, or the last one, for the test to check that nothing changed: a
 * read that must stay held, a cancellation that must not happen.
 */
export async function holds<T>(read: () => Promise<T>, keep: (value: T) => boolean, opts: { tries?: number; everyMs?: number } = {}): Promise<T> {
  let value = await read();
  for (let i = 0; i < (opts.tries ?? 6) && keep(value); i++) {
    await Bun.sleep(opts.everyMs ?? 50);
    value = await read();
  }
  return value;
}

/**
 * `eventually` for a read that answers "not yet" with nothing: re-reads until it gives a value and
 * returns it, or fails naming what it waited for. For work that takes seconds (a worker's job, a
 * process starting), pass a larger `ms`.
 */
export async function until<T>(what: string, read: () => Promise<T | null | undefined | false>, opts: { ms?: number; everyMs?: number } = {}): Promise<T> {
  const everyMs = opts.everyMs ?? 100;
  const value = await eventually(read, Boolean, { tries: Math.ceil((opts.ms ?? 60_000) / everyMs), everyMs });
  if (!value) throw new Error(`timed out waiting for ${what}`);
  return value;
}

/**
 * Whether `promise` settles while it is watched (about 3 s by default): for a test that says a
 * reader is not held by a writer, or a query behind a cancelled one still gets its answer. A
 * rejection is thrown, as awaiting the promise would.
 */
export async function settles<T>(
  promise: Promise<T>,
  opts: { tries?: number; everyMs?: number } = {},
): Promise<{ settled: true; value: T } | { settled: false }> {
  let state: { settled: true; value: T } | { settled: false } | { failed: unknown } = { settled: false };
  promise.then(
    (value) => {
      state = { settled: true, value };
    },
    (failed) => {
      state = { failed };
    },
  );
  const last = await eventually(
    async () => state,
    (s) => !('settled' in s) || s.settled,
    opts,
  );
  if ('failed' in last) throw last.failed;
  return last;
}

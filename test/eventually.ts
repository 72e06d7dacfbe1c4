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

/**
 * Edges hear of changes by NOTIFY, a moment after the commit: re-reads until `accept` holds (or
 * about 3 s pass) and returns the last value, for the test's own assertion to judge.
 */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, opts: { tries?: number; everyMs?: number } = {}): Promise<T> {
  let value = await read();
  for (let i = 0; i < (opts.tries ?? 60) && !accept(value); i++) {
    await Bun.sleep(opts.everyMs ?? 50);
    value = await read();
  }
  return value;
}

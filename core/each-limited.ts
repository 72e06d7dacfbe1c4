/**
 * Runs `work` over `items` with at most `limit` in flight. Hand-written: a pool this small is
 * fewer lines than wiring p-limit's queue for one call site's error handling.
 */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(runners);
}

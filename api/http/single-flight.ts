/**
 * Concurrent misses of one cache key share one computation: when a popular page or a burst of
 * identical reads arrives before the first answer is cached, the database does the work once
 * instead of once per waiting request (the thundering herd behind a cold or just-invalidated cache).
 */
export function singleFlight<T>() {
  const running = new Map<string, Promise<T>>();
  return (key: string, compute: () => Promise<T>): Promise<T> => {
    const inFlight = running.get(key);
    if (inFlight) return inFlight;
    const p = compute().finally(() => running.delete(key));
    running.set(key, p);
    return p;
  };
}

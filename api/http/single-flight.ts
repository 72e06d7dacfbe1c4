/** The failure of a read whose every client has gone before it was answered: nothing to log, nobody to answer. */
export class RequestAbandoned extends Error {
  constructor() {
    super('Every client of this read closed its request before the answer.');
    this.name = 'RequestAbandoned';
  }
}

export const isAbandoned = (err: unknown) => err instanceof RequestAbandoned;

/**
 * Concurrent misses of one cache key share one computation: when a popular page or a burst of
 * identical reads arrives before the first answer is cached, the database does the work once
 * instead of once per waiting request (the thundering herd behind a cold or just-invalidated cache).
 *
 * The computation gets a signal that aborts once every waiter that came with a signal has gone
 * (its client closed the connection) and none came without one. Its queries are not cancelled
 * (the reads' statement timeout bounds them); a later request for the key starts afresh.
 */
export function singleFlight<T>() {
  interface Flight {
    promise: Promise<T>;
    controller: AbortController;
    waiting: number;
    pinned: boolean;
  }
  const running = new Map<string, Flight>();
  return (key: string, compute: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> => {
    let flight = running.get(key);
    if (!flight) {
      const controller = new AbortController();
      const started: Flight = { controller, waiting: 0, pinned: false, promise: undefined as never };
      started.promise = compute(controller.signal).finally(() => {
        if (running.get(key) === started) running.delete(key);
      });
      running.set(key, (flight = started));
    }
    const f = flight;
    // Nobody left to answer: stop the work, and let a later request for the key start afresh.
    const leave = () => {
      if (--f.waiting > 0 || f.pinned) return;
      if (running.get(key) === f) running.delete(key);
      f.controller.abort();
    };
    if (!signal) f.pinned = true;
    else {
      f.waiting++;
      if (signal.aborted) leave();
      else signal.addEventListener('abort', leave, { once: true });
    }
    return f.promise;
  };
}

import type { Sql } from '../sql/db.ts';

/** A query's then(): awaiting a postgres.js query (a lazy Promise subclass) is what runs it. */
export type RunQuery = (onfulfilled?: (v: unknown) => unknown, onrejected?: (e: unknown) => unknown) => PromiseLike<unknown>;

export interface QueryHooks {
  /** The then() a query gets instead of its own: `run` is its own then() (it runs the query). */
  query(query: object, run: RunQuery): RunQuery;
  /** What sql.begin (a whole transaction) runs through; as it is when absent. */
  begin?(run: () => PromiseLike<unknown>): PromiseLike<unknown>;
}

const isTemplate = (x: unknown) => Array.isArray(x) && 'raw' in (x as object);

/**
 * The pool with every query it makes (tagged templates and `unsafe`; `sql(values)` helpers are
 * fragments, not queries) handed to `hooks.query` for the moment it runs, and transactions to
 * `hooks.begin`. A template used as a fragment of another query is wrapped too but never run.
 * postgres.js has no per-query hook; a query is a lazy Promise that runs when awaited, so its
 * then() (the public thenable contract) is where this hooks in; no private field is read.
 */
export function proxyQueries(sql: Sql, hooks: QueryHooks): Sql {
  // The hook is asked for only when the query is awaited: most templates are fragments of a larger
  // statement and never run (a search builds about thirty), so each costs one closure, not the hook's.
  const wrap = <Q extends object>(query: Q): Q => {
    const q = query as Q & { then: Function };
    const own = q.then;
    // biome-ignore lint/suspicious/noThenProperty: postgres.js runs a query when it is awaited; that moment is the one to hook
    q.then = (onfulfilled?: (v: unknown) => unknown, onrejected?: (e: unknown) => unknown) =>
      hooks.query(q, (a, b) => own.call(q, a, b))(onfulfilled, onrejected);
    // postgres.js's own catch() and finally() run the query directly and then call then(): the
    // query would run outside the hook and its failure would reject a promise nobody handles
    // (which ends the process). Both go through the hooked then() instead.
    const hooked = q as unknown as { catch: Function; finally: Function };
    hooked.catch = (onrejected?: (e: unknown) => unknown) => q.then(undefined, onrejected);
    hooked.finally = (onfinally?: () => void) =>
      q.then(
        (v: unknown) => {
          onfinally?.();
          return v;
        },
        (e: unknown) => {
          onfinally?.();
          throw e;
        },
      );
    return q;
  };
  return new Proxy(sql as unknown as Function, {
    apply(target, thisArg, args) {
      const out = Reflect.apply(target, thisArg, args);
      return isTemplate(args[0]) ? wrap(out) : out;
    },
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'unsafe') return (...args: unknown[]) => wrap((value as Function).apply(target, args));
      if (prop === 'begin' && hooks.begin) return (...args: unknown[]) => hooks.begin!(() => (value as Function).apply(target, args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as Sql;
}

/** Why PostgreSQL stopped a statement (57014): a CancelRequest ('user') or its statement_timeout. */
export function cancelledBy(err: unknown): 'user' | 'timeout' | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e?.code !== '57014') return null;
  const message = String(e.message);
  return /statement timeout/.test(message) ? 'timeout' : /user request/.test(message) ? 'user' : null;
}

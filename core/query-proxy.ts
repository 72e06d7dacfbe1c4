import type { Sql } from '../sql/db.ts';

/** A query's then(): awaiting a postgres.js query (a lazy Promise subclass) is what runs it. */
export type RunQuery = (onfulfilled?: (v: unknown) => unknown, onrejected?: (e: unknown) => unknown) => PromiseLike<unknown>;

export interface QueryHooks {
  /**
   * The then() a query gets instead of its own: `run` is its own then() (it runs the query), and
   * `again` makes the same query anew (a settled query cannot run twice).
   */
  query(query: object, run: RunQuery, again: () => object): RunQuery;
  /** What sql.begin (a whole transaction) runs through; as it is when absent. */
  begin?(run: () => PromiseLike<unknown>): PromiseLike<unknown>;
}

const isTemplate = (x: unknown) => Array.isArray(x) && 'raw' in (x as object);

/**
 * The pool with every query it makes (tagged templates and `unsafe`; `sql(values)` helpers are
 * fragments, not queries) handed to `hooks.query` for the moment it runs, and transactions to
 * `hooks.begin`. A template used as a fragment of another query is wrapped too but never run.
 */
export function proxyQueries(sql: Sql, hooks: QueryHooks): Sql {
  const wrap = <Q extends object>(query: Q, again: () => object): Q => {
    const q = query as Q & { then: Function };
    const own = q.then;
    // biome-ignore lint/suspicious/noThenProperty: postgres.js runs a query when it is awaited; that moment is the one to hook
    q.then = hooks.query(q, (a, b) => own.call(q, a, b), again);
    return q;
  };
  return new Proxy(sql as unknown as Function, {
    apply(target, thisArg, args) {
      const out = Reflect.apply(target, thisArg, args);
      return isTemplate(args[0]) ? wrap(out, () => Reflect.apply(target, thisArg, args)) : out;
    },
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'unsafe') {
        const make = (args: unknown[]) => (value as Function).apply(target, args);
        return (...args: unknown[]) => wrap(make(args), () => make(args));
      }
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

import { afterAll, beforeAll } from 'bun:test';
import { seedSynthetic } from '../seeds/synthetic.ts';
import { connect, type Sql } from '../sql/db.ts';
import { ensureSite } from '../sql/site.ts';
import { freshDatabase } from './db.ts';

/** What the plan tests of the whole statements (search, browse, rankings) share. */
export interface PlanDatabase {
  db: Awaited<ReturnType<typeof freshDatabase>>;
  /** One connection that runs every statement with the plan PostgreSQL caches for it (generic: the plan every call after the fifth runs). */
  one: Sql;
  siteId: number;
}

/**
 * A fresh database of `listings` synthetic listings for one test file, analysed, with `more` run
 * on it before the analyse (data a statement needs to be table-sized). Read its fields in tests.
 */
export function planDatabase(listings = 3000, more?: (sql: Sql, siteId: number) => Promise<unknown>): PlanDatabase {
  const it = {} as PlanDatabase;
  beforeAll(async () => {
    it.db = await freshDatabase();
    it.siteId = (await ensureSite(it.db.sql, 'main', 'http://localhost')).id;
    await seedSynthetic(it.db.sql, it.siteId, listings);
    await more?.(it.db.sql, it.siteId);
    await it.db.sql`analyze`;
    it.one = connect(it.db.url, { max: 1 });
    await it.one`set plan_cache_mode = force_generic_plan`;
  }, 180_000);
  afterAll(async () => {
    await it.one?.end();
    await it.db?.drop();
  });
  return it;
}

/** A statement's plan as it ran (EXPLAIN ANALYZE without costs or timing). */
export interface RanPlan {
  text: string;
  lines: string[];
  /** Whether a node on this index (or table) ran. */
  ran: (index: string) => boolean;
  /** The lines of the nodes that ran. */
  ranNodes: string[];
  /** Rows each Sort node that ran sorted. */
  sorted: number[];
}

export async function ranPlan(one: Sql, text: string, values: unknown[]): Promise<RanPlan> {
  const lines = (await one.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, costs off, timing off, summary off) ${text}`, values as never[])).map(
    (r) => r['QUERY PLAN'],
  );
  const ranNodes = lines.filter((l) => !l.includes('never executed'));
  return {
    text: lines.join('\n'),
    lines,
    ranNodes,
    ran: (index) => ranNodes.some((l) => l.includes(` ${index} `)),
    sorted: ranNodes.filter((l) => /(^|->\s+)(Incremental )?Sort \(/.test(l.trim())).map((l) => Number(/rows=([\d.]+)/.exec(l)![1])),
  };
}

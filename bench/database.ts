import { loadConfig } from '../core/config.ts';
import { connect } from '../sql/db.ts';
import { startEmbeddedPostgres } from '../sql/embedded.ts';
import { migrate } from '../sql/migrate.ts';
import { ensureSite } from '../sql/site.ts';
import { seedDemo } from '../seeds/demo.ts';
import { seedSynthetic } from '../seeds/synthetic.ts';

/**
 * The bench database: BENCH_DATABASE_URL when set, else an embedded PostgreSQL under
 * DATA_DIR/bench-pg (kept apart from the dev data). Filled once to BENCH_LISTINGS synthetic listings.
 */
export async function benchDatabase(target: number) {
  const config = loadConfig(process.env);
  const pg = process.env.BENCH_DATABASE_URL
    ? { url: process.env.BENCH_DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres(`${config.dataDir}/bench-pg`, config.embeddedPgPort + 1, 'bench', { durable: false });
  const sql = connect(pg.url, { max: 4 });
  await migrate(sql, pg.url);
  const site = await ensureSite(sql, config.siteKey, 'http://127.0.0.1');
  let [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from listings where site_id = ${site.id}`;
  if (n === 0) { await seedDemo(sql, site.id); n = (await sql<{ n: number }[]>`select count(*)::int as n from listings where site_id = ${site.id}`)[0].n; }
  if (n < target) {
    console.log(`filling the bench database: ${target - n} synthetic listings...`);
    const t = Date.now();
    await seedSynthetic(sql, site.id, target - n);
    console.log(`  done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  return { url: pg.url, sql, siteId: site.id, stop: async () => { await sql.end(); await pg.stop(); } };
}

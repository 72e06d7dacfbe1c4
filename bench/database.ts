import { loadConfig } from '../core/config.ts';
import { prepareDatabase } from '../core/database.ts';
import { seedDemo } from '../seeds/demo.ts';
import { seedSynthetic } from '../seeds/synthetic.ts';
import { storeMissingDocuments } from '../sql/queries/listing-profile.ts';

/**
 * The bench database: BENCH_DATABASE_URL when set, else an embedded PostgreSQL under
 * DATA_DIR/bench-pg (kept apart from the dev data). Filled once to BENCH_LISTINGS synthetic listings.
 */
export async function benchDatabase(target: number) {
  const config = loadConfig(process.env);
  const { url, sql, site, stop } = await prepareDatabase(config, {
    // Never DATABASE_URL: the bench fills its database, so it is its own.
    url: process.env.BENCH_DATABASE_URL ?? null,
    dataDir: `${config.dataDir}/bench-pg`,
    port: config.embeddedPgPort + 1,
    database: 'bench',
    connections: 4,
    siteUrl: 'http://127.0.0.1',
    durable: false,
  });
  let [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from listings where site_id = ${site.id}`;
  if (n === 0) {
    await seedDemo(sql, site.id);
    n = (await sql<{ n: number }[]>`select count(*)::int as n from listings where site_id = ${site.id}`)[0].n;
  }
  if (n < target) {
    console.log(`filling the bench database: ${target - n} synthetic listings...`);
    const t = Date.now();
    // One line per step: a million listings take tens of minutes, and docs/performance.md promises progress.
    await seedSynthetic(sql, site.id, target - n, (done, total, step) =>
      console.log(`  [${done}/${total}] ${step} (${((Date.now() - t) / 1000).toFixed(0)} s)`),
    );
    console.log(`  done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  } else {
    // The fill stores every live listing's profile; a database filled before migration 0021 has
    // none yet: build them once here, so the long tail measures a directory whose listings have
    // been read before, not first reads.
    const t = Date.now();
    const stored = await storeMissingDocuments(sql, site.id);
    if (stored > 0) console.log(`stored ${stored} listings' profiles in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  return { url, sql, siteId: site.id, stop };
}

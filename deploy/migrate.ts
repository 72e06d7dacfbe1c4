// `npm run migrate`: applies the migrations to DATABASE_URL, then loads the reference data a
// working site needs (categories, products and prices, interview questions) unless
// --no-reference-data is given. Both steps are idempotent; the compose migration service and the
// Kubernetes migration Job run this before edges and workers start.
import { loadConfig } from '../core/config.ts';
import { loadReferenceData } from '../seeds/reference.ts';
import { connect } from '../sql/db.ts';
import { migrate } from '../sql/migrate.ts';
import { ensureSite } from '../sql/site.ts';

const config = loadConfig(process.env);
if (!config.databaseUrl) {
  console.error('DATABASE_URL is required: `npm run migrate` prepares an external database (npm start prepares its embedded one itself).');
  process.exit(2);
}
const sql = connect(config.databaseUrl, { max: 1 });
try {
  const applied = await migrate(sql, config.databaseUrl);
  console.log(applied.length ? `migrations: applied ${applied.join(', ')}` : 'migrations: up to date');
  if (!process.argv.includes('--no-reference-data')) {
    const site = await ensureSite(sql, config.siteKey, config.siteUrl);
    const added = await loadReferenceData(sql, site.id);
    console.log(
      `reference data: added ${added.categories} categories, ${added.products} products, ${added.prices} prices, ${added.questions} interview questions`,
    );
  }
} finally {
  await sql.end();
}

import { loadConfig } from '../core/config.ts';
import { connect } from '../sql/db.ts';
import { migrate } from '../sql/migrate.ts';

const config = loadConfig(process.env);
if (!config.databaseUrl) throw new Error('DATABASE_URL is required to migrate an external database');
const sql = connect(config.databaseUrl, { max: 1 });
const applied = await migrate(sql, config.databaseUrl);
console.log(applied.length ? `applied ${applied.join(', ')}` : 'up to date');
await sql.end();

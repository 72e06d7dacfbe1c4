import { loadConfig } from './config.ts';
import { connect } from './db.ts';
import { migrate } from './migrate.ts';

const config = loadConfig(process.env);
if (!config.databaseUrl) throw new Error('DATABASE_URL is required to migrate an external database');
const sql = connect(config.databaseUrl, { max: 1 });
const applied = await migrate(sql, config.databaseUrl);
console.log(applied.length ? `applied ${applied.join(', ')}` : 'up to date');
await sql.end();

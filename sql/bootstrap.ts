import type { Config } from './config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

/** DATABASE_URL when set; otherwise the embedded PostgreSQL with its data under DATA_DIR/pg. */
export async function resolveDatabase(config: Config): Promise<{ url: string; embedded: boolean; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  const pg = await startEmbeddedPostgres(`${config.dataDir}/pg`, config.embeddedPgPort);
  return { url: pg.url, embedded: true, stop: pg.stop };
}

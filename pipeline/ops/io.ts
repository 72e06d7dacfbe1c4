import type { Config } from '../../core/config.ts';
import type { Sql } from '../../sql/db.ts';

/**
 * What a command needs: the database, two line writers (stdout, stderr), and who is acting (for
 * the audit trail; the CLI passes OPS_ACTOR or the system user name).
 */
export interface OpsIo {
  sql: Sql;
  out: (line: string) => void;
  err: (line: string) => void;
  actor?: string;
  config?: Config;
  /** The database's URL: `recrawl` runs its jobs in this process through graphile-worker while attached. */
  databaseUrl?: string;
  /** stdout is a terminal (progress bars instead of plain lines). */
  tty?: boolean;
}

/** Exit codes: 0 done, 1 the command could not do it (no such user or key), 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Bad usage: the message goes to stderr and the CLI exits 2. */
export class UsageError extends Error {}

/** A command that ran but could not do what was asked: stderr and exit 1. */
export class OpsFailure extends Error {}

/** The shape the site accepts (an HTML e-mail input's), kept loose: the account is made on first use. */
export function email(raw: string | undefined, flag = '--email'): string {
  const value = raw?.trim() ?? '';
  if (!value) throw new UsageError(`${flag} is required`);
  if (value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new UsageError(`${flag} must be an e-mail address, got "${value}"`);
  return value;
}

export const isoTime = (d: Date | null) => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');

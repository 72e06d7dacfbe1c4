import type { Sql } from '../../sql/db.ts';
import type { SafeFetch } from '../../core/net/ssrf-fetch.ts';

/** What the tasks that read an owner's website (badge checks, claim checks) need. */
export interface SiteCheckDeps { sql: Sql; fetcher: SafeFetch }

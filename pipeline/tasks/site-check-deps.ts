import type { SafeFetch } from '../../core/net/ssrf-fetch.ts';
import type { TaskDeps } from './task.ts';

/** What the tasks that read an owner's website (badge checks, claim checks) need. */
export interface SiteCheckDeps extends TaskDeps {
  fetcher: SafeFetch;
}

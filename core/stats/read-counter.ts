// Counters a busy route bumps (reads of listings by API and MCP clients, badge impressions) kept in
// memory and written in one statement every few seconds: a cached read or a badge serves thousands
// of requests a second, and a database write per request (on one hot row) would cost more than it.
import type { Sql } from '../../sql/db.ts';

const SLUG = /^[a-z0-9][a-z0-9-]{0,219}$/;
/** Distinct keys held between flushes at most: a flood of made-up slugs or hosts cannot grow memory without limit. */
const MAX_KEYS = 50_000;

abstract class BatchedCounts {
  private counts = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null;

  constructor(
    protected readonly sql: Sql,
    protected readonly siteId: number,
    private readonly onError: (err: unknown) => void,
    everyMs: number,
  ) {
    this.timer = setInterval(() => void this.flush().catch(onError), everyMs);
    this.timer.unref?.();
  }

  protected bump(key: string): void {
    if (!this.counts.has(key) && this.counts.size >= MAX_KEYS) return;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  protected abstract write(rows: { key: string; n: number }[]): Promise<void>;

  /** Writes what was counted since the last flush. */
  async flush(): Promise<void> {
    if (!this.counts.size) return;
    const rows = [...this.counts].map(([key, n]) => ({ key, n }));
    this.counts = new Map();
    await this.write(rows);
  }

  /** Stops the periodic writes and writes what is held (at the edge's stop); a failure goes to onError. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush().catch(this.onError);
  }
}

/** get_listing answered over REST ('api') or MCP ('mcp'); unknown or non-live slugs are dropped when written. */
export class ReadCounter extends BatchedCounts {
  constructor(sql: Sql, siteId: number, onError: (err: unknown) => void, everyMs = 5000) {
    super(sql, siteId, onError, everyMs);
  }

  add(slug: string, surface: 'api' | 'mcp'): void {
    if (SLUG.test(slug)) this.bump(`${surface} ${slug}`);
  }

  protected async write(rows: { key: string; n: number }[]): Promise<void> {
    const data = rows.map(({ key, n }) => ({ surface: key.slice(0, 3), slug: key.slice(4), reads: n }));
    await this.sql`
      insert into listing_reads (listing_id, day, surface, reads)
      select l.id, (now() at time zone 'utc')::date, x.surface, sum(x.reads)
      from jsonb_to_recordset(${this.sql.json(data as never)}) as x(surface text, slug text, reads int)
      join listings l on l.site_id = ${this.siteId} and l.slug = x.slug and l.status = 'live'
      group by l.id, x.surface
      on conflict (listing_id, day, surface) do update set reads = listing_reads.reads + excluded.reads`;
  }
}

/** Badge images served, by listing and referring host. */
export class BadgeImpressionCounter extends BatchedCounts {
  constructor(sql: Sql, siteId: number, onError: (err: unknown) => void, everyMs = 5000) {
    super(sql, siteId, onError, everyMs);
  }

  add(slug: string, host: string): void {
    if (SLUG.test(slug) && host.length <= 253 && !host.includes(' ')) this.bump(`${slug} ${host}`);
  }

  protected async write(rows: { key: string; n: number }[]): Promise<void> {
    const data = rows.map(({ key, n }) => {
      const at = key.indexOf(' ');
      return { slug: key.slice(0, at), host: key.slice(at + 1), n };
    });
    await this.sql`
      insert into listing_badge_impressions (listing_id, day, host, impressions)
      select l.id, (now() at time zone 'utc')::date, x.host, sum(x.n)
      from jsonb_to_recordset(${this.sql.json(data as never)}) as x(slug text, host text, n int)
      join listings l on l.site_id = ${this.siteId} and l.slug = x.slug
      group by l.id, x.host
      on conflict (listing_id, day, host) do update set impressions = listing_badge_impressions.impressions + excluded.impressions`;
  }
}

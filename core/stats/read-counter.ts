// Reads of listings by API and MCP clients, counted in memory and written in one statement every
// few seconds: a public read serves tens of thousands of requests a second from the cache, and a
// database write per read would cost more than the read.
import type { Sql } from '../../sql/db.ts';

export class ReadCounter {
  private counts = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly siteId: number,
    private readonly onError: (err: unknown) => void,
    everyMs = 5000,
  ) {
    this.timer = setInterval(() => void this.flush().catch(this.onError), everyMs);
    this.timer.unref?.();
  }

  add(slug: string, surface: 'api' | 'mcp'): void {
    if (!/^[a-z0-9][a-z0-9-]{0,219}$/.test(slug)) return;
    const key = `${surface} ${slug}`;
    // Bounded: a flood of distinct slugs (most unknown) cannot grow the map without limit.
    if (!this.counts.has(key) && this.counts.size >= 50_000) return;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Writes what was counted since the last flush; unknown or non-live slugs are dropped by the join. */
  async flush(): Promise<void> {
    if (!this.counts.size) return;
    const rows = [...this.counts].map(([key, reads]) => {
      const [surface, slug] = key.split(' ');
      return { surface, slug, reads };
    });
    this.counts = new Map();
    await this.sql`
      insert into listing_reads (listing_id, day, surface, reads)
      select l.id, (now() at time zone 'utc')::date, x.surface, sum(x.reads)
      from jsonb_to_recordset(${this.sql.json(rows as never)}) as x(surface text, slug text, reads int)
      join listings l on l.site_id = ${this.siteId} and l.slug = x.slug and l.status = 'live'
      group by l.id, x.surface
      on conflict (listing_id, day, surface) do update set reads = listing_reads.reads + excluded.reads`;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * Restart bookkeeping for `npm start`: how long to wait before restarting something that died
 * (doubling from one second up to 30 s, back to one second once it has run for a minute), and
 * whether crashes come so fast that restarting is pointless (a crash loop: `maxCrashes` within
 * `windowMs`, counted over everything supervised), in which case everything is stopped.
 */
export class RestartPolicy {
  private crashes: number[] = [];
  private streak = new Map<string, { n: number; startedAt: number }>();

  constructor(private opts: { maxCrashes: number; windowMs: number; baseDelayMs?: number; maxDelayMs?: number; stableMs?: number }) {}

  /** Note that `name` (re)started now. */
  started(name: string, now = Date.now()): void {
    const s = this.streak.get(name);
    this.streak.set(name, { n: s?.n ?? 0, startedAt: now });
  }

  /** Note a crash; returns the delay before restarting, or null for a crash loop (stop everything). */
  crashed(name: string, now = Date.now()): number | null {
    this.crashes = this.crashes.filter((t) => t > now - this.opts.windowMs);
    this.crashes.push(now);
    if (this.crashes.length >= this.opts.maxCrashes) return null;
    const s = this.streak.get(name) ?? { n: 0, startedAt: now };
    const n = now - s.startedAt >= (this.opts.stableMs ?? 60_000) ? 0 : s.n; // it had run long enough: a fresh start
    this.streak.set(name, { n: n + 1, startedAt: s.startedAt });
    return Math.min((this.opts.baseDelayMs ?? 1000) * 2 ** n, this.opts.maxDelayMs ?? 30_000);
  }

  get recentCrashes(): number {
    return this.crashes.length;
  }
}

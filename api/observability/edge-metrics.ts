import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Surface = 'rest' | 'mcp' | 'pages' | 'other';

/**
 * The edge's Prometheus metrics, one registry per app: requests by operation, status and surface
 * with latency, cache hits and misses, rate-limit rejections and idempotent replays.
 */
export class EdgeMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'directory_http_requests_total',
    help: 'Requests answered, by surface, operation and status.',
    labelNames: ['surface', 'operation', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'directory_http_request_duration_seconds',
    help: 'Time to answer, by surface and operation.',
    labelNames: ['surface', 'operation'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly cache = new Counter({
    name: 'directory_cache_lookups_total',
    help: 'Response cache lookups, by result (hit or miss).',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly limited = new Counter({
    name: 'directory_rate_limited_total',
    help: 'Requests refused by a rate limit, by surface.',
    labelNames: ['surface'],
    registers: [this.registry],
  });
  private readonly replays = new Counter({
    name: 'directory_idempotent_replays_total',
    help: 'Responses replayed for a repeated Idempotency-Key, by operation.',
    labelNames: ['operation'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'directory_edge_' });
  }

  request(surface: Surface, operation: string, status: number, seconds: number): void {
    this.requests.inc({ surface, operation, status: String(status) });
    this.latency.observe({ surface, operation }, seconds);
    if (status === 429) this.limited.inc({ surface });
  }

  cacheLookup(hit: boolean): void {
    this.cache.inc({ result: hit ? 'hit' : 'miss' });
  }
  replay(operation: string): void {
    this.replays.inc({ operation });
  }
}

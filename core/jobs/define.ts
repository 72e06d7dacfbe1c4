// The shape of a job: its name, a versioned TypeBox payload schema, its job key and attempts.
// Modelled on graphile-worker's TypeScript guide and supabase/storage's queue events (a version
// on every payload, a key per unit of work, sent within the caller's transaction).
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { registerFormats } from '../schema/formats.ts';

// Payloads use string formats (uuid): known here whichever module loaded first (the worker never loads the edge's validator).
registerFormats();

export interface JobDefinition<P extends TProperties = TProperties> {
  /** The graphile-worker task identifier. */
  name: string;
  /** Written into every payload as `v`; a task refuses a payload of another version. */
  version: number;
  /** The payload's own fields (`v` is added). Unknown fields are refused. */
  payload: TObject<P>;
  /** One job per unit of work: a second enqueue with the same key replaces the waiting one. */
  key?: (payload: Static<TObject<P>>) => string;
  maxAttempts: number;
  /** Jobs in one named queue run one at a time, in order. */
  queue?: (payload: Static<TObject<P>>) => string;
  /**
   * graphile-worker's priority, lower first (default 0): jobs nobody is waiting on (BACKGROUND)
   * wait behind those a person is, so an operator's re-crawl of thousands or the hourly sweep's
   * badge re-checks never hold up a submitted site's crawl.
   */
  priority?: number;
  /** What the job does, for operators and the conventions document. */
  about: string;
}

export type PayloadOf<J extends JobDefinition> = J extends JobDefinition<infer P> ? Static<TObject<P>> : never;

/** The priority of jobs nobody is waiting on: sweeps' re-checks and operators' re-crawl batches. */
export const BACKGROUND = 10;

export const defineJob = <P extends TProperties>(job: JobDefinition<P>): JobDefinition<P> => job;

/** A job with no payload beyond its version (cron jobs). */
export const NO_PAYLOAD = Type.Object({}, { additionalProperties: false });

/** A payload that does not match its job's schema: the job fails with this message, and is not retried forever. */
export class PayloadError extends Error {
  override readonly name = 'PayloadError';
}

/** Checks a raw payload against its job's schema and version; returns the payload without `v`. */
export function parsePayload<P extends TProperties>(job: JobDefinition<P>, raw: unknown): Static<TObject<P>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new PayloadError(`${job.name}: the payload is not an object`);
  const { v, ...rest } = raw as Record<string, unknown>;
  // Cron jobs are enqueued by graphile-worker itself with a payload describing the schedule.
  const fields = job.payload === (NO_PAYLOAD as unknown) ? {} : rest;
  if (v !== undefined && v !== job.version) throw new PayloadError(`${job.name}: payload version ${String(v)} is not the supported version ${job.version}`);
  if (!Value.Check(job.payload, fields)) {
    const first = Value.Errors(job.payload, fields).First();
    throw new PayloadError(`${job.name}: invalid payload${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`);
  }
  return fields as Static<TObject<P>>;
}

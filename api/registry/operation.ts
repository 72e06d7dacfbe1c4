import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Config } from '../../core/config.ts';
import type { Sql } from '../../sql/db.ts';
import type { ResponseCache } from '../http/cache.ts';

import type { Scope } from '../../core/auth/scopes.ts';
import type { ErrorCode } from '../../core/errors/codes.ts';

export type { Scope };
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The deployment's own site, resolved once at start. */
export interface Site {
  id: number;
  key: string;
  name: string;
  purpose: string;
  url: string;
}

/** Who is calling and what the credential allows; credentialId keys rate limits and audits. */
export interface Principal {
  userId: string;
  email: string;
  kind: 'api_key' | 'oauth';
  credentialId: string;
  scopes: Scope[];
}

export interface OperationContext {
  sql: Sql;
  site: Site;
  config: Config;
  cache: ResponseCache;
  principal: Principal | null;
  /** A credential was sent but is unknown, expired, revoked or for another resource. */
  credentialRejected: boolean;
  requestId: string;
  /** The Idempotency-Key sent with the request, if any (REST header or MCP argument). */
  idempotencyKey?: string;
  /**
   * Aborts when the client has gone. In a public read's handler, it aborts once every client
   * waiting for that read has gone (its queries run on, bounded by the reads' statement timeout).
   */
  signal?: AbortSignal;
  /** The pool of public reads (AppDeps.readSql): execute() runs cacheable operations on it. */
  readSql?: Sql;
}

/**
 * What a scoped operation's handler gets: authorize() has checked the credential and its scope
 * before any handler runs, so the principal is there.
 */
export interface ScopedOperationContext extends OperationContext {
  principal: Principal;
}

/** The handler's context: a non-null principal exactly when the operation has a scope. */
export type ContextFor<S extends Scope | null> = S extends Scope ? ScopedOperationContext : OperationContext;

type In<T> = T extends TObject ? Static<T> : {};

/**
 * One operation of the spec, defined once. REST routes, MCP tools and the OpenAPI document are
 * generated from these fields; nothing about an operation lives anywhere else.
 */
export interface OperationDef<
  P extends TObject | undefined,
  Q extends TObject | undefined,
  B extends TObject | undefined,
  O extends TSchema,
  S extends Scope | null = Scope | null,
> {
  name: string;
  method: Method;
  /** OpenAPI-style path under /api/v1, e.g. /listings/{slug}. */
  path: string;
  /**
   * A short title (the MCP tool's title, the OpenAPI summary), e.g. "Search listings". No
   * trailing stop.
   */
  summary: string;
  /**
   * Two to four sentences for a reader (often a model) who knows nothing else: what the operation
   * does, when to use it rather than its neighbours, what it needs first (scope, state of the
   * draft or listing, a badge, a person's step) and what comes back. The MCP tool's description
   * and the start of the OpenAPI description; refer only to things the caller can see (other
   * operations, fields), never to internal documents.
   */
  description: string;
  tag: string;
  /** null for public operations. */
  scope: S;
  params?: P;
  query?: Q;
  body?: B;
  output: O;
  /** 201 for create operations. */
  status?: 200 | 201;
  /**
   * Where a 201 points (Location), under /api/v1: the created resource's URL, or the list that
   * holds it when it has no URL of its own. Every create operation has one.
   */
  location?: (output: Static<O>, input: In<P> & In<Q> & In<B>) => string;
  /** The operation accepts an Idempotency-Key header. */
  idempotent?: boolean;
  /**
   * The operation reaches past this service: it reads other websites or e-mails people (MCP's
   * openWorldHint). Every other operation acts on the directory alone.
   */
  openWorld?: boolean;
  /** Path parameters whose invalid values mean "no such resource" (404) rather than bad input. */
  notFoundParams?: string[];
  /** Further error responses the operation can give (status -> when), for the OpenAPI document. */
  responses?: Record<number, string>;
  /** Extra lines for the OpenAPI description: the rules in detail (REST clients and /docs read them, MCP clients do not). */
  notes?: string;
  /** A realistic call and its answers, from the demo data, for the OpenAPI document and /docs. */
  examples?: OperationExamples;
  handler: (input: In<P> & In<Q> & In<B>, ctx: ContextFor<S>) => Promise<Static<O> | Serialized<Static<O>>>;
}

/**
 * One realistic call of an operation and what it answers. The OpenAPI document shows them (request
 * example, a response example per status); a test validates each against the operation's schemas.
 */
export interface OperationExamples {
  /** The arguments, path, query and body members side by side as an MCP tool takes them; omit for an operation without inputs. */
  input?: Record<string, unknown>;
  /** The success answer's body (200 or 201, whichever the operation answers). */
  output: unknown;
  /** The error a caller meets most often with this operation: its status and the problem's code, detail and (400) errors. */
  error: ExampleProblem;
}

/** The members of a problem that differ between errors; type, title and instance are filled in. */
export interface ExampleProblem {
  status: number;
  code: ErrorCode;
  detail: string;
  errors?: { field: string; in?: 'path' | 'query' | 'body' | 'header'; message: string }[];
}

/**
 * An answer a handler returns already as JSON text (the edge sends it as it is, without a parse
 * and a stringify of its own): for answers read from the database as JSON. A list answer carries
 * its paging beside the text (serializedList).
 */
export class Serialized<T> {
  declare readonly of?: T;
  constructor(
    readonly json: string,
    /** A list answer's page (page, has_more), for its Link header. */
    readonly paging?: { page: number; has_more: boolean },
  ) {}
}

/** A list answer, { items, page, per_page, total, has_more }, around its items' JSON text. */
export function serializedList<T>(itemsJson: string, info: { page: number; per_page: number; total: number; has_more: boolean }): Serialized<T> {
  // The page's members written as JSON writes them, after the items.
  return new Serialized(`{"items":${itemsJson},${JSON.stringify(info).slice(1)}`, { page: info.page, has_more: info.has_more });
}

export type Operation = OperationDef<TObject | undefined, TObject | undefined, TObject | undefined, TSchema>;

export function defineOperation<
  P extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
  B extends TObject | undefined = undefined,
  O extends TSchema = TSchema,
  S extends Scope | null = null,
>(op: OperationDef<P, Q, B, O, S>): Operation {
  return op as unknown as Operation;
}

import type { TObject } from '@sinclair/typebox';
import type { Operation } from './operation.ts';
import { IDEMPOTENCY_ARGUMENT } from '../http/idempotency.ts';

/**
 * The Idempotency-Key as a tool argument: MCP clients (and the agents driving them) often cannot
 * set request headers per call, so idempotent operations take the key as an argument as well.
 */
export const idempotencyKeyArgument = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[ -~]+$',
  // The OpenAPI document's and validation's; MCP tools show only the argument's type, the server's
  // instructions saying what it does and its bounds once (api/mcp/tools.ts, TOLD_ONCE).
  description: 'A retry with the same key and arguments returns the first result.',
};

/** JSON Schema without TypeBox's symbol-keyed markers (a JSON round trip drops them). */
export const plainSchema = (schema: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

/** Properties a caller must send: required and without a default (defaults are filled in). */
export function requiredNames(schema: TObject | undefined): string[] {
  if (!schema) return [];
  return (schema.required ?? []).filter((k) => (schema.properties[k] as { default?: unknown }).default === undefined);
}

/** The single input object of an operation (path, query and body merged): the MCP tool's inputSchema. */
export function mergedInputSchema(op: Operation): Record<string, unknown> {
  const parts = [op.params, op.query, op.body].filter(Boolean) as TObject[];
  const properties: Record<string, unknown> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.properties)) properties[k] = plainSchema(v);
  if (op.idempotent) properties[IDEMPOTENCY_ARGUMENT] = idempotencyKeyArgument;
  const required = parts.flatMap(requiredNames);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

import type { TObject } from '@sinclair/typebox';
import type { Operation } from './operation.ts';

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
  const required = parts.flatMap(requiredNames);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

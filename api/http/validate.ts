import type { TObject } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { DomainError, invalidFields, type FieldIssue } from '../../core/errors/index.ts';
import { registerFormats } from '../../core/schema/formats.ts';
import type { Operation } from '../registry/operation.ts';
import { bodyIssues } from '../../core/validation/limits.ts';
import { bidiIssues } from '../../core/validation/bidi.ts';

export type Location = 'path' | 'query' | 'body';
export interface RawInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

// Ours win over any registered before (Elysia registers its own on import): what the API accepts
// must not depend on which module happened to load first.
registerFormats();

const compiled = new WeakMap<TObject, TypeCheck<TObject>>();
const check = (schema: TObject) => {
  let c = compiled.get(schema);
  if (!c) compiled.set(schema, (c = TypeCompiler.Compile(schema)));
  return c;
};

/**
 * Path and query values arrive as strings. Convert only exact spellings ("12", "true"), so that
 * "1.5" or "yes" stay strings and fail validation instead of being coerced (TypeBox's Convert
 * would truncate 1.5 to 1).
 */
function convertStrings(schema: TObject, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const [key, raw] of Object.entries(value)) {
    const prop = schema.properties[key] as { type?: string } | undefined;
    if (!prop || typeof raw !== 'string') continue;
    if (prop.type === 'integer' && /^-?\d{1,15}$/.test(raw)) out[key] = Number(raw);
    else if (prop.type === 'number' && /^-?\d{1,15}(\.\d{1,15})?$/.test(raw)) out[key] = Number(raw);
    else if (prop.type === 'boolean' && (raw === 'true' || raw === 'false')) out[key] = raw === 'true';
  }
  return out;
}

function fieldName(path: string): string {
  return (
    path
      .replace(/^\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.') || '(root)'
  );
}

/** The values a union of literals (an enum) allows; null for any other union. */
function literalsOf(schema: { anyOf?: unknown[] }): unknown[] | null {
  const members = schema.anyOf as { const?: unknown }[] | undefined;
  if (!members?.length || !members.every((m) => m !== null && typeof m === 'object' && 'const' in m)) return null;
  return members.map((m) => m.const);
}

/**
 * One field's message. An enum names the values it takes, and another union what each of its
 * alternatives wants (TypeBox says only "Expected union value"). TypeBox's own messages keep their
 * case but for the first letter, since they quote patterns and formats (a country's ^[A-Za-z]{2}$
 * read ^[a-za-z]{2}$ when all of it was lowered).
 */
function issueMessage(e: ValueError): string {
  if (e.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a known field';
  if (e.type === ValueErrorType.Union) {
    const values = literalsOf(e.schema as { anyOf?: unknown[] });
    if (values) return `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
    // Each alternative's own complaint about the value itself ("expected integer to be greater or
    // equal to 1800, or null"); one about a member inside it says too little out of context.
    const firsts = e.errors.map((it) => it.First());
    if (firsts.length && firsts.every((f) => f !== undefined && f.path === e.path)) {
      const [head, ...rest] = [...new Set(firsts.map((f) => issueMessage(f!)))];
      return [head, ...rest.map((m) => m.replace(/^expected /, ''))].join(', or ');
    }
  }
  return e.message.charAt(0).toLowerCase() + e.message.slice(1);
}

/** Validates one part of the input; strings from the path and query are converted to the schema's types. */
function part(
  schema: TObject | undefined,
  value: unknown,
  where: Location,
  convert: boolean,
  issues: (FieldIssue & { in: Location })[],
): Record<string, unknown> {
  if (!schema) {
    const empty = value === undefined || value === null || (typeof value === 'object' && Object.keys(value as object).length === 0);
    if (!empty) issues.push({ field: '(root)', in: where, message: `this operation takes no ${where} input` });
    return {};
  }
  let v: unknown = value ?? {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    issues.push({ field: '(root)', in: where, message: 'must be a JSON object' });
    return {};
  }
  // Shape and text first, without recursion: a deeply nested value would overflow the schema
  // validator's stack, and PostgreSQL cannot hold U+0000 or a lone surrogate.
  const shape = bodyIssues(v);
  if (shape.length) {
    for (const i of shape) issues.push({ ...i, in: where });
    return {};
  }
  v = convert ? convertStrings(schema, v as Record<string, unknown>) : Value.Clone(v);
  v = Value.Default(schema, v);
  const c = check(schema);
  if (!c.Check(v)) {
    const seen = new Set<string>();
    for (const e of c.Errors(v)) {
      const field = fieldName(e.path);
      if (seen.has(field)) continue; // the first message per field is the most specific
      seen.add(field);
      issues.push({ field, in: where, message: issueMessage(e) });
    }
  } else {
    // Text that displays in another order than it is stored: refused in a line, removed from long text.
    for (const i of bidiIssues(schema, v)) issues.push({ ...i, in: where });
  }
  return v as Record<string, unknown>;
}

/** Checks path, query and body against the operation's schemas and merges them into one input object. */
export function validateInput(op: Operation, raw: RawInput, opts: { convert: boolean }): Record<string, unknown> {
  const issues: (FieldIssue & { in: Location })[] = [];
  const path = part(op.params, raw.path, 'path', true, issues);
  const query = part(op.query, raw.query, 'query', opts.convert, issues);
  const body = part(op.body, raw.body, 'body', false, issues);
  if (issues.length) {
    if (op.notFoundParams && issues.every((i) => i.in === 'path' && op.notFoundParams!.includes(i.field))) {
      throw new DomainError('not_found', `No such ${issues.map((i) => i.field).join(', ')}: ${issues.map((i) => String(raw.path?.[i.field])).join(', ')}`);
    }
    throw invalidFields(issues);
  }
  return { ...path, ...query, ...body };
}

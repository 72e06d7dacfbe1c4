import type { TObject } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { DomainError, type FieldIssue } from '../../sql/errors.ts';
import type { Operation } from '../registry/operation.ts';

export type Location = 'path' | 'query' | 'body';
export interface RawInput { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown }

const compiled = new WeakMap<TObject, TypeCheck<TObject>>();
const check = (schema: TObject) => {
  let c = compiled.get(schema);
  if (!c) compiled.set(schema, (c = TypeCompiler.Compile(schema)));
  return c;
};

function fieldName(path: string): string {
  return path.replace(/^\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.') || '(root)';
}

/** Validates one part of the input; strings from the path and query are converted to the schema's types. */
function part(schema: TObject | undefined, value: unknown, where: Location, convert: boolean, issues: (FieldIssue & { in: Location })[]): Record<string, unknown> {
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
  v = Value.Clone(v);
  if (convert) v = Value.Convert(schema, v);
  v = Value.Default(schema, v);
  const c = check(schema);
  if (!c.Check(v)) {
    const seen = new Set<string>();
    for (const e of c.Errors(v)) {
      const field = fieldName(e.path);
      if (seen.has(field)) continue; // the first message per field is the most specific
      seen.add(field);
      const message = e.type === 42 ? 'is not a known field' : e.message.toLowerCase();
      issues.push({ field, in: where, message });
    }
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
      throw new DomainError('not_found', `No such ${issues.map((i) => i.field).join(', ')}: ${issues.map((i) => String((raw.path ?? {})[i.field])).join(', ')}`);
    }
    const summary = issues.map((i) => `${i.field} ${i.message}`).join('; ');
    throw new DomainError('invalid', `Invalid input: ${summary}`, issues);
  }
  return { ...path, ...query, ...body };
}

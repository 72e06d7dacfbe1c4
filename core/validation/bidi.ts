// Bidirectional control characters (U+202A-U+202E embeddings and overrides, U+2066-U+2069
// isolates) make text display in another order than it is stored: "gpj.exe" shown as "exe.jpg", a
// name that reads as someone else's. A single line of text (a name, a tagline, a title) has no
// use for them and is refused; in long text they are removed, so what is shown is what was sent.
import type { TSchema } from '@sinclair/typebox';
import type { FieldIssue } from '../errors/index.ts';

export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const HAS_BIDI = /[\u202A-\u202E\u2066-\u2069]/;

/** Strings whose bound is longer than this are long text (descriptions, bodies, answers, bios). */
export const SINGLE_LINE_MAX = 500;

export const hasBidiControls = (s: string) => HAS_BIDI.test(s);
export const withoutBidiControls = (s: string) => s.replace(BIDI_CONTROLS, '');

type Schema = TSchema & {
  type?: string | string[];
  maxLength?: number;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
};

const isLongText = (s: Schema | undefined) => s?.maxLength === undefined || s.maxLength > SINGLE_LINE_MAX;

function memberFor(schema: Schema, value: unknown): Schema | undefined {
  if (!schema.anyOf) return schema;
  const want = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return schema.anyOf.find((m) => m.type === want || (want === 'object' && m.properties !== undefined)) ?? schema.anyOf[0];
}

/**
 * Walks a value already valid for its schema: single-line strings with bidi controls become
 * issues (field paths as the validator names them); long strings are cleaned in place.
 */
export function bidiIssues(schema: Schema, value: unknown, path = ''): FieldIssue[] {
  const s = memberFor(schema, value);
  if (!s) return [];
  if (typeof value === 'string') {
    if (!hasBidiControls(value)) return [];
    return isLongText(s) ? [] : [{ field: path || '(root)', message: 'must not contain bidirectional control characters (U+202A-202E, U+2066-2069)' }];
  }
  const issues: FieldIssue[] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (typeof v === 'string' && s.items && isLongText(s.items)) value[i] = withoutBidiControls(v);
      else if (s.items) issues.push(...bidiIssues(s.items, v, `${path}[${i}]`));
    });
    return issues;
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      const child =
        s.properties?.[k] ??
        Object.entries(s.patternProperties ?? {}).find(([re]) => new RegExp(re).test(k))?.[1] ??
        (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (!child) continue;
      const member = memberFor(child, v);
      if (typeof v === 'string' && member && isLongText(member)) obj[k] = withoutBidiControls(v);
      else issues.push(...bidiIssues(child, v, path ? `${path}.${k}` : k));
    }
  }
  return issues;
}

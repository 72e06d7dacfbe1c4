/** A plain JSON Schema object. */
type JsonSchema = Record<string, unknown>;

/**
 * Output schemas as tools/list shows them: every agent pays for tools/list in its context window,
 * and output schemas were most of it. A result's shape is what a client needs (types, required
 * keys, enums); the bounds, patterns, formats and prose describe inputs and live in the OpenAPI
 * document. Repeated sub-schemas of one response become shared `$defs`.
 */

/** Keys that say nothing a client reading a result needs. */
const DROPPED = new Set([
  'description',
  'title',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'default',
  'examples',
  '$id',
  'additionalProperties',
  // Every key an output lists is always sent (null where it may be null), so `required` would
  // repeat each object's key list.
  'required',
]);

const isPlainObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{type: T}` alone, or `{type: [T...]}` alone. */
const bareTypes = (s: JsonSchema): string[] | null => {
  const keys = Object.keys(s);
  if (keys.length !== 1 || keys[0] !== 'type') return null;
  return Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
};

function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!isPlainObject(node)) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (DROPPED.has(k)) continue;
    if (k === 'properties' && isPlainObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, simplify(s)]));
    else out[k] = simplify(v);
  }
  if (Array.isArray(out.anyOf)) {
    // Nested unions flatten; a union of constants is an enum; a union of bare types is a type list.
    const parts = (out.anyOf as JsonSchema[]).flatMap((p) => (Object.keys(p).length === 1 && Array.isArray(p.anyOf) ? (p.anyOf as JsonSchema[]) : [p]));
    const rest = Object.fromEntries(Object.entries(out).filter(([k]) => k !== 'anyOf'));
    if (parts.every((p) => 'const' in p && Object.keys(p).every((k) => k === 'const' || k === 'type'))) {
      const types = [...new Set(parts.map((p) => p.type).filter(Boolean))];
      return { ...rest, ...(types.length === 1 ? { type: types[0] } : {}), enum: parts.map((p) => p.const) };
    }
    const bare = parts.map(bareTypes);
    if (bare.every(Boolean)) {
      const types = [...new Set(bare.flat() as string[])];
      return { ...rest, type: types.length === 1 ? types[0] : types };
    }
    // An enum or a bare type that may also be null: one schema with null added.
    const nonNull = parts.filter((p) => !(bareTypes(p)?.length === 1 && p.type === 'null'));
    if (nonNull.length === 1 && parts.length === 2) {
      const only = nonNull[0]!;
      if (Array.isArray(only.enum) && typeof only.type === 'string') return { ...rest, type: [only.type, 'null'], enum: [...(only.enum as unknown[]), null] };
    }
    out.anyOf = parts;
  }
  return out;
}

/** Sub-schemas worth sharing: big enough that a `$ref` is much shorter than the copy. */
const MIN_SHARED = 80;

function collect(node: unknown, counts: Map<string, number>, root = true) {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, counts, false);
    return;
  }
  if (!isPlainObject(node)) return;
  if (!root) {
    const key = JSON.stringify(node);
    if (key.length >= MIN_SHARED) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === '$defs') continue;
    if (k === 'properties' && isPlainObject(v)) for (const s of Object.values(v)) collect(s, counts, false);
    else collect(v, counts, false);
  }
}

function replace(node: unknown, target: string, ref: JsonSchema): unknown {
  if (Array.isArray(node)) return node.map((n) => replace(n, target, ref));
  if (!isPlainObject(node)) return node;
  if (JSON.stringify(node) === target) return ref;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && isPlainObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, replace(s, target, ref)]));
    else out[k] = replace(v, target, ref);
  }
  return out;
}

/** The name of a shared schema: the property it first appears under, else a number. */
function nameFor(root: unknown, defs: Record<string, unknown>, target: string): string {
  let found: string | undefined;
  const walk = (node: unknown) => {
    if (found || !isPlainObject(node)) return;
    if (isPlainObject(node.properties))
      for (const [p, s] of Object.entries(node.properties)) {
        if (found) return;
        if (JSON.stringify(s) === target || (isPlainObject(s) && JSON.stringify(s.items) === target)) found = p;
      }
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) v.forEach(walk);
      else if (isPlainObject(v)) {
        if (v === node.properties) Object.values(v).forEach(walk);
        else walk(v);
      }
    }
  };
  walk(root);
  for (const d of Object.values(defs)) walk(d);
  const base = (found ?? 'shared').replace(/[^A-Za-z0-9_]/g, '_');
  let name = base;
  for (let i = 2; name in defs; i++) name = `${base}${i}`;
  return name;
}

/** The compact output schema of one tool: same shape, fewer bytes. */
export const compactOutputSchema = (schema: JsonSchema): JsonSchema => shareRepeats(simplify(schema) as JsonSchema);

/**
 * Repeated sub-schemas of one schema moved to its `$defs` and referenced: for input schemas, which
 * keep every bound and description (they are what a caller reads to build a valid call).
 */
export function shareRepeats(schema: JsonSchema): JsonSchema {
  let root = schema;
  const defs: Record<string, unknown> = {};
  for (;;) {
    const counts = new Map<string, number>();
    collect(root, counts);
    for (const d of Object.values(defs)) collect(d, counts);
    // The largest repeated sub-schema first, so that what it contains is shared inside its def.
    let best: string | undefined;
    for (const [k, n] of counts) if (n > 1 && (!best || k.length > best.length)) best = k;
    if (!best) break;
    const name = nameFor(root, defs, best);
    const ref = { $ref: `#/$defs/${name}` };
    root = replace(root, best, ref) as JsonSchema;
    for (const [k, d] of Object.entries(defs)) defs[k] = replace(d, best, ref);
    defs[name] = JSON.parse(best);
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

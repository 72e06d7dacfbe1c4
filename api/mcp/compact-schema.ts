/** A plain JSON Schema object. */
type JsonSchema = Record<string, unknown>;

/**
 * Input schemas as tools/list shows them: every agent pays for tools/list in its context window.
 * The OpenAPI document keeps every schema whole; here each says what a caller needs and no more:
 * every type, enum, bound and required list, and the first sentence of the descriptions of the
 * arguments and, of their members, those with an example value (an order item's Monday week);
 * patterns go (each field's description says what it accepts, and the server checks the
 * full schema, naming the field it refuses).
 * Unions stay `anyOf` with one `type` per branch (nullable values as `anyOf` with `{type: "null"}`):
 * a `type` list is legal JSON Schema, but clients that map tool schemas onto a single-type dialect
 * (Gemini's function declarations, the MCP Inspector's strict check) refuse or weaken it. Repeated
 * sub-schemas of one schema become `$defs`.
 */

/** Keys of input schemas that the server's own check covers and a caller can do without. */
const INPUT_DROPPED = new Set(['title', 'pattern', 'examples', '$id']);

/** Levels of an input whose members keep their descriptions: the arguments. */
const INPUT_DESCRIBED = 1;
/** Levels below which no description is shown, even one with an example: the arguments' members. */
const INPUT_EXAMPLED = 2;

const isPlainObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{type: T}` alone, or `{type: [T...]}` alone. */
const bareTypes = (s: JsonSchema): string[] | null => {
  const keys = Object.keys(s);
  if (keys.length !== 1 || keys[0] !== 'type') return null;
  return Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
};

interface Rules {
  /** Whether a key goes, at a depth (0: the root object, 1: its properties, ...). */
  drops(key: string, depth: number): boolean;
  /** Descriptions cut to their first sentence. */
  firstSentence?: boolean;
}

/** Bounds a caller can do without below the arguments themselves: the server names the field it refuses. */
const NESTED_BOUNDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum', 'format']);
const inputRules: Rules = {
  drops: (k, depth) =>
    INPUT_DROPPED.has(k) ||
    (depth > INPUT_EXAMPLED && k === 'description') ||
    (depth > 1 && NESTED_BOUNDS.has(k)) ||
    (depth > 0 && k === 'additionalProperties'),
  firstSentence: true,
};

/**
 * The first sentence of a description (the OpenAPI document has the rest): up to a stop followed
 * by a space or the end, except the stops of "e.g.", "i.e." and "www." (and "3.5" has no space).
 */
export const firstSentence = (text: string) => /^.*?(?<!\b(?:e\.g|i\.e|www))[.!?](?=\s|$)/s.exec(text)?.[0] ?? text;

/** Whether `p` only names values of the one type `q` admits whole: `{const: "", type: "string"}` beside `{type: "string"}`. */
const isConstantOf = (p: JsonSchema, q: JsonSchema) =>
  ('const' in p || 'enum' in p) &&
  typeof p.type === 'string' &&
  Object.keys(p).every((k) => k === 'const' || k === 'enum' || k === 'type') &&
  bareTypes(q)?.length === 1 &&
  q.type === p.type;

/**
 * A union with null as `anyOf: [T, {type: "null"}]`, the keywords that describe the value (its
 * description, default) kept beside the union rather than inside T.
 */
function nullableOf(rest: JsonSchema, parts: JsonSchema[]): JsonSchema | null {
  const isNull = (p: JsonSchema) => bareTypes(p)?.length === 1 && p.type === 'null';
  const nonNull = parts.filter((p) => !isNull(p));
  if (nonNull.length !== 1 || parts.length !== 2) return null;
  const { description, default: dflt, ...only } = nonNull[0]!;
  // The union's own description and default, where it has them, win over the branch's.
  return {
    ...(description === undefined ? {} : { description }),
    ...(dflt === undefined ? {} : { default: dflt }),
    ...rest,
    anyOf: [only, { type: 'null' }],
  };
}

function simplify(node: unknown, rules: Rules, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((n) => simplify(n, rules, depth));
  if (!isPlainObject(node)) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (rules.drops(k, depth)) continue;
    // The bound TypeBox ids carry to stay exact in JavaScript: no value a caller sends comes near it.
    if (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'properties' && isPlainObject(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, simplify(s, rules, depth + 1)]));
    } else if (k === 'items') {
      // An array's items stand at the array's own level: a list of order items describes each item's members.
      out[k] = simplify(v, rules, depth);
    } else if (k === 'patternProperties' || k === 'additionalProperties') {
      out[k] = simplify(v, rules, depth + 1);
    } else if (k === 'description' && rules.firstSentence && typeof v === 'string') {
      // Below the arguments, only a description with an example value stays: those were written to
      // prevent a wrong call (an order item's Monday week, a draft's category display names); rules
      // such as a social link's hosts the server checks, naming the field.
      if (depth <= INPUT_DESCRIBED || /\be\.g\. /.test(v)) out[k] = firstSentence(v);
    } else out[k] = simplify(v, rules, depth);
  }
  if (Array.isArray(out.anyOf)) {
    // Nested unions flatten; a union of constants is an enum; a union of bare types is a type list.
    const flat = (out.anyOf as JsonSchema[]).flatMap((p) => (Object.keys(p).length === 1 && Array.isArray(p.anyOf) ? (p.anyOf as JsonSchema[]) : [p]));
    // A constant a bare type already admits adds nothing (`""` beside a URL once its format is gone).
    const parts = flat.filter((p, i) => !flat.some((q, j) => j !== i && isConstantOf(p, q)));
    const rest = Object.fromEntries(Object.entries(out).filter(([k]) => k !== 'anyOf'));
    if (parts.length === 1) return { ...rest, ...parts[0] };
    if (parts.every((p) => 'const' in p && Object.keys(p).every((k) => k === 'const' || k === 'type'))) {
      const types = [...new Set(parts.map((p) => p.type).filter(Boolean))];
      return { ...rest, ...(types.length === 1 ? { type: types[0] } : {}), enum: parts.map((p) => p.const) };
    }
    const bare = parts.map(bareTypes);
    if (bare.every(Boolean)) {
      const types = [...new Set(bare.flat() as string[])];
      return types.length === 1 ? { ...rest, type: types[0] } : { ...rest, anyOf: types.map((type) => ({ type })) };
    }
    const nullable = nullableOf(rest, parts);
    if (nullable) return nullable;
    out.anyOf = parts;
  }
  return out;
}

/** Sub-schemas worth looking at: a `$ref` to a shared schema takes about 25 characters. */
const MIN_SHARED = 40;
/**
 * Whether sharing a sub-schema seen n times makes the schema shorter: each copy becomes a `$ref`
 * (about 25 characters) and the schema is written once more under `$defs` with its name. A
 * nullable string (44 characters) pays from its fourth copy on; update_draft has 15.
 */
const saves = (schema: string, n: number) => n * (schema.length - 25) > schema.length + 20;

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

/** The compact input schema of one tool: every bound and enum, no patterns, short on prose deep down. */
export const compactInputSchema = (schema: JsonSchema): JsonSchema => shareRepeats(withoutRepeatedLists(simplify(schema, inputRules)) as JsonSchema);

/** Splits "a, b or c" into its items. */
const listItems = (text: string) => text.split(/\s*,\s*|\s+or\s+|\s+and\s+/).filter(Boolean);

/**
 * A description's parenthesised list that only repeats the schema's own enum values or member
 * names ("A platform (linkedin, x, ...)" beside those very properties) goes: the schema says it.
 */
export function withoutRepeatedLists(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutRepeatedLists);
  if (!isPlainObject(node)) return node;
  const out: JsonSchema = Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === 'properties' && isPlainObject(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, withoutRepeatedLists(s)])) : withoutRepeatedLists(v),
    ]),
  );
  const names = new Set<string>([
    ...(Array.isArray(out.enum) ? out.enum.filter((e): e is string => typeof e === 'string') : []),
    ...(isPlainObject(out.properties) ? Object.keys(out.properties) : []),
  ]);
  if (typeof out.description === 'string' && names.size > 1) {
    out.description = out.description.replace(/\s*\(([^()]*)\)/g, (whole, inner: string) => {
      const items = listItems(inner);
      return items.length > 1 && items.every((i) => names.has(i)) ? '' : whole;
    });
  }
  return out;
}

/** Repeated sub-schemas of one schema moved to its `$defs` and referenced. */
export function shareRepeats(schema: JsonSchema): JsonSchema {
  let root = schema;
  const defs: Record<string, unknown> = {};
  for (;;) {
    const counts = new Map<string, number>();
    collect(root, counts);
    for (const d of Object.values(defs)) collect(d, counts);
    // The largest repeated sub-schema first, so that what it contains is shared inside its def.
    let best: string | undefined;
    for (const [k, n] of counts) if (n > 1 && saves(k, n) && (!best || k.length > best.length)) best = k;
    if (!best) break;
    const name = nameFor(root, defs, best);
    const ref = { $ref: `#/$defs/${name}` };
    root = replace(root, best, ref) as JsonSchema;
    for (const [k, d] of Object.entries(defs)) defs[k] = replace(d, best, ref);
    defs[name] = JSON.parse(best);
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

/** A plain JSON Schema object. */
type JsonSchema = Record<string, unknown>;

/**
 * Schemas as tools/list shows them: every agent pays for tools/list in its context window. The
 * OpenAPI document keeps every schema whole; here each says what a caller needs and no more.
 * - Outputs: a result's shape (types, nullability, enums) to OUTPUT_DEPTH levels; deeper objects
 *   are just objects (the result itself carries them). Bounds, patterns, formats and prose
 *   describe inputs.
 * - Inputs: every type, enum, bound and required list, the descriptions of the arguments and of
 *   their direct members; patterns go (each field's description says what it accepts, and the
 *   server checks the full schema, naming the field it refuses).
 * Unions with null become type lists, and repeated sub-schemas of one schema become `$defs`.
 */

/** Keys that say nothing a client reading a result needs. */
const OUTPUT_DROPPED = new Set([
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

/** Keys of input schemas that the server's own check covers and a caller can do without. */
const INPUT_DROPPED = new Set(['title', 'pattern', 'examples', '$id']);

/** Levels of an output's shape shown: the result, its members and theirs. */
const OUTPUT_DEPTH = 1;
/** Levels of an input whose members keep their descriptions: the arguments and their members. */
const INPUT_DESCRIBED = 1;

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
  /** Past this depth an object or array keeps only its type. */
  maxDepth: number;
  /** A paged list's `items` are what the list returns: each item's shape counts as the result's own. */
  itemsAsRoot?: boolean;
  /** Descriptions cut to their first sentence. */
  firstSentence?: boolean;
}

const outputRules: Rules = { drops: (k) => OUTPUT_DROPPED.has(k), maxDepth: OUTPUT_DEPTH, itemsAsRoot: true };
/** Bounds a caller can do without below the arguments themselves: the server names the field it refuses. */
const NESTED_BOUNDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum', 'format']);
const inputRules: Rules = {
  drops: (k, depth) =>
    INPUT_DROPPED.has(k) || (depth > INPUT_DESCRIBED && (k === 'description' || NESTED_BOUNDS.has(k))) || (depth > 0 && k === 'additionalProperties'),
  maxDepth: Infinity,
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

/** A union with null as one schema: `{type: [T, "null"]}` (its keywords apply to T's values only, so null still passes). */
function mergeNull(rest: JsonSchema, parts: JsonSchema[]): JsonSchema | null {
  const nonNull = parts.filter((p) => !(bareTypes(p)?.length === 1 && p.type === 'null'));
  if (nonNull.length !== 1 || parts.length !== 2) return null;
  const only = nonNull[0]!;
  if (typeof only.type !== 'string' || 'anyOf' in only || '$ref' in only) return null;
  if (Array.isArray(only.enum)) return { ...rest, ...only, type: [only.type, 'null'], enum: [...(only.enum as unknown[]), null] };
  return { ...rest, ...only, type: [only.type, 'null'] };
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
      if (depth >= rules.maxDepth) continue;
      const below = (p: string) => (rules.itemsAsRoot && depth === 0 && p === 'items' ? 0 : depth + 1);
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, simplify(s, rules, below(p))]));
    } else if (k === 'items') {
      // An array's items stand at the array's own level: a list of summaries shows the summary.
      const items = simplify(v, rules, depth);
      // Past the levels shown, "an array of objects" says no more than "an array" (the result carries them).
      if (depth >= rules.maxDepth && isPlainObject(items) && bareTypes(items)?.join() === 'object') continue;
      out[k] = items;
    } else if (k === 'patternProperties' || k === 'additionalProperties') {
      if (depth >= rules.maxDepth && isPlainObject(v) && !bareTypes(v)) continue;
      out[k] = simplify(v, rules, depth + 1);
    } else if (k === 'description' && rules.firstSentence && typeof v === 'string') out[k] = firstSentence(v);
    else out[k] = simplify(v, rules, depth);
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
      return { ...rest, type: types.length === 1 ? types[0] : types };
    }
    const merged = mergeNull(rest, parts);
    if (merged) return merged;
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

/** The compact output schema of one tool: its shape to OUTPUT_DEPTH, fewer bytes. */
export const compactOutputSchema = (schema: JsonSchema): JsonSchema => shareRepeats(simplify(schema, outputRules) as JsonSchema);

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

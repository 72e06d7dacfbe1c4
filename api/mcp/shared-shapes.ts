/**
 * Result shapes told once across tools. MCP has no `$defs` shared between tools, and every agent
 * pays for tools/list in its context window, so a shape that another tool already shows in full
 * is named instead of repeated: "the same shape as the result of get_order", or, when it holds
 * every member of that shape and more, "the members of an item in the result of search_listings,
 * and these" followed by the added members only. Whole schemas decide (the compact ones show only
 * the upper levels), so a named shape is the named one down to its last level. Only whole shapes
 * are named: naming a list's paging members would save bytes and cost every reader a lookup.
 */

/** A plain JSON Schema object. */
type JsonSchema = Record<string, unknown>;

/** A tool's result as the registry states it (whole) and as tools/list shows it (compact). */
export interface ToolShape {
  name: string;
  read: boolean;
  whole: JsonSchema;
  compact: JsonSchema;
}

/** One object shape a tool shows: its result, or the items of its paged list. */
interface Shape {
  tool: number;
  where: 'result' | 'items';
  compact: JsonSchema & { properties: Record<string, JsonSchema> };
  /** Each member's whole schema as JSON, to compare members between shapes. */
  keys: Map<string, string>;
}

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

function shapeOf(tool: number, where: Shape['where'], whole: unknown, compact: unknown): Shape | null {
  if (!isObject(whole) || !isObject(whole.properties) || !isObject(compact) || !isObject(compact.properties)) return null;
  const keys = new Map(Object.entries(whole.properties).map(([k, s]) => [k, JSON.stringify(s)]));
  // Keywords beside the members (a union, a pattern of keys) make a shape more than its members.
  const others = Object.keys(whole).filter((k) => !['type', 'properties', 'required', 'additionalProperties', 'description', 'title', '$id'].includes(k));
  if (others.length) return null;
  return { tool, where, compact: compact as Shape['compact'], keys };
}

const itemsOf = (s: unknown) => (isObject(s) && isObject(s.properties) && isObject(s.properties.items) ? s.properties.items.items : undefined);

/** `shape` told as `base` and its added members; none unless it holds every member of the base, the same to the last level. */
function namedAfter(shape: Shape, base: Shape, ref: string): { schema: JsonSchema; same: boolean } | null {
  if (![...base.keys].every(([k, v]) => shape.keys.get(k) === v)) return null;
  const added = Object.fromEntries(Object.entries(shape.compact.properties).filter(([k]) => !base.keys.has(k)));
  return Object.keys(added).length
    ? { schema: { type: 'object', description: `The members of ${ref}, and these.`, properties: added }, same: false }
    : { schema: { type: 'object', description: `The same shape as ${ref}.` }, same: true };
}

/**
 * The tools' output schemas with shapes shown once. Smaller shapes are shown first (and reads
 * before writes), so a bigger one can name an earlier shape it contains. A shape named with its
 * added members may be named in turn: the chain ends at a shape shown in full.
 */
export function shareShapes(tools: ToolShape[]): JsonSchema[] {
  const byTool = tools.map((t, i) => ({ result: shapeOf(i, 'result', t.whole, t.compact), items: shapeOf(i, 'items', itemsOf(t.whole), itemsOf(t.compact)) }));
  // A stable sort: among equals, the registry's order.
  const order = byTool
    .flatMap((b) => [b.result, b.items])
    .filter((s): s is Shape => s !== null)
    .sort((a, b) => a.keys.size - b.keys.size || Number(tools[b.tool]!.read) - Number(tools[a.tool]!.read));

  const earlier: Shape[] = [];
  const named = new Map<Shape, JsonSchema>();
  for (const shape of order) {
    // The name that saves the most bytes, if any saves some. A shape that is only another's name
    // is never named after: the one it names is among the earlier shapes too (one lookup, not two).
    let best: ReturnType<typeof namedAfter> = null;
    let size = JSON.stringify(shape.compact).length;
    for (const base of earlier) {
      const name = tools[base.tool]!.name;
      const candidate = namedAfter(shape, base, base.where === 'result' ? `the result of ${name}` : `an item in the result of ${name}`);
      const bytes = candidate ? JSON.stringify(candidate.schema).length : Infinity;
      if (bytes < size) [best, size] = [candidate, bytes];
    }
    if (best) named.set(shape, best.schema);
    if (!best?.same) earlier.push(shape);
  }

  return tools.map((t, i) => {
    const { result, items } = byTool[i]!;
    if (result && named.has(result)) return named.get(result)!;
    if (!items || !named.has(items)) return t.compact;
    const list = (t.compact.properties as JsonSchema).items as JsonSchema;
    return { ...t.compact, properties: { ...(t.compact.properties as JsonSchema), items: { ...list, items: named.get(items) } } };
  });
}

// The MCP Inspector CLI's tool-schema portability check (`--method tools/list --strict`,
// @modelcontextprotocol/inspector 2.12, core/json/schemaLint.ts), restated for tests: the check is
// bundled inside the inspector's CLI application (120 packages, Node 22) and not published as a
// library. Same rules, severities and walk: a bare boolean where a schema is expected (error), a
// `type` array (warning), a `$ref` outside the document (warning), a schema that constrains nothing
// (warning).

type Json = Record<string, unknown>;

export interface Finding {
  tool: string;
  schema: 'inputSchema' | 'outputSchema';
  path: string;
  rule: 'boolean-schema' | 'type-union' | 'remote-ref' | 'untyped-schema';
  severity: 'error' | 'warning';
}

const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const SUBSCHEMA = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', ...BOOLEAN_VALUED, 'contentSchema'];
const SUBSCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
// Keywords that assert something of a value; `if` counts only with `then` or `else`.
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);
const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function children(node: Json, path: string, visit: (child: unknown, path: string, keyword: string) => void) {
  for (const key of SUBSCHEMA_MAPS) if (isObject(node[key])) for (const [name, sub] of Object.entries(node[key])) visit(sub, `${path}.${key}.${name}`, key);
  for (const key of SUBSCHEMA_ARRAYS)
    if (Array.isArray(node[key])) for (const [i, sub] of (node[key] as unknown[]).entries()) visit(sub, `${path}.${key}[${i}]`, key);
  for (const key of SUBSCHEMA) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === 'items' && Array.isArray(value)) for (const [i, sub] of value.entries()) visit(sub, `${path}.items[${i}]`, key);
    else visit(value, `${path}.${key}`, key);
  }
}

const declaresId = (node: unknown): boolean => {
  if (!isObject(node)) return false;
  if (typeof node.$id === 'string' && node.$id !== '') return true;
  let found = false;
  children(node, '', (c) => {
    found ||= declaresId(c);
  });
  return found;
};

/** The findings of one schema of one tool. */
export function lintSchema(tool: string, kind: Finding['schema'], schema: unknown): Finding[] {
  const findings: Finding[] = [];
  const embeddedIds = declaresId(schema);
  const add = (path: string, rule: Finding['rule'], severity: Finding['severity']) =>
    findings.push({ tool, schema: kind, path: path || '(root)', rule, severity });
  const walk = (node: unknown, path: string, keyword: string | undefined, depth: number) => {
    if (depth > 64) return;
    if (typeof node === 'boolean') {
      if (!(keyword && BOOLEAN_VALUED.has(keyword))) add(path, 'boolean-schema', 'error');
      return;
    }
    if (!isObject(node)) return;
    const type = node.type;
    if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && TYPES.has(t)) && new Set(type).size === type.length)
      add(path, 'type-union', 'warning');
    if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#') && !embeddedIds) add(path, 'remote-ref', 'warning');
    const constrains = Object.keys(node).some((k) => CONSTRAINING.has(k)) || ('if' in node && ('then' in node || 'else' in node));
    if (!constrains && keyword !== 'not') add(path, 'untyped-schema', 'warning');
    children(node, path, (child, childPath, childKeyword) => walk(child, childPath, childKeyword, depth + 1));
  };
  walk(schema, '', undefined, 0);
  return findings;
}

/** What `inspector --cli --method tools/list --strict` reports for a tools/list result. */
export function lintTools(tools: { name: string; inputSchema?: unknown; outputSchema?: unknown }[]): Finding[] {
  return tools.flatMap((t) => [
    ...(t.inputSchema === undefined ? [] : lintSchema(t.name, 'inputSchema', t.inputSchema)),
    ...(t.outputSchema === undefined ? [] : lintSchema(t.name, 'outputSchema', t.outputSchema)),
  ]);
}

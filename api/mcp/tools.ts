import { isAbandoned } from '../http/single-flight.ts';
import { DomainError, type FieldIssue, invalidFields } from '../../core/errors/index.ts';
import { type Executed, execute } from '../http/execute.ts';
import { IDEMPOTENCY_ARGUMENT, keyProblem, toHeaderValue } from '../http/idempotency.ts';
import { problemFromError } from '../http/problem.ts';
import { validateInput } from '../http/validate.ts';
import type { Operation, OperationContext } from '../registry/operation.ts';
import { idempotencyKeyArgument, mergedInputSchema } from '../registry/inputs.ts';
import { Page, PerPage } from '../registry/schemas.ts';
import { compactInputSchema } from './compact-schema.ts';

/** A plain JSON Schema object, as TypeBox builds them (symbol keys dropped). */
export type JsonSchema = Record<string, unknown>;

/** What tools/list shows for one operation; built once from the registry. */
export interface ToolSpec {
  op: Operation;
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Which REST location each argument belongs to. */
  keys: { path: Set<string>; query: Set<string>; body: Set<string> };
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Arguments the server's instructions tell once for every tool: each one's shared description,
 * and what of its schema each tool still shows. Paging keeps its bounds and defaults (models pick
 * per_page); the idempotency key only its type, its bounds being in the instructions.
 */
const undescribed = ({ description: _, ...p }: JsonSchema) => p;
const TOLD_ONCE = new Map<string, { description: string; shown: (p: JsonSchema) => JsonSchema }>([
  ['page', { description: Page.description!, shown: undescribed }],
  ['per_page', { description: PerPage.description!, shown: undescribed }],
  [IDEMPOTENCY_ARGUMENT, { description: idempotencyKeyArgument.description, shown: (p) => ({ type: p.type }) }],
]);

/**
 * What the instructions say once is not repeated by each tool: that arguments a tool does not list
 * are refused (additionalProperties: false), and the paging and idempotency arguments. Only an
 * argument with the shared description is cut, so one of the same name meaning something else
 * keeps its own.
 */
export function withConventionsTold(schema: JsonSchema): JsonSchema {
  const { additionalProperties: _, ...rest } = schema;
  const properties = Object.fromEntries(
    Object.entries((rest.properties ?? {}) as Record<string, JsonSchema>).map(([k, p]) => {
      const told = TOLD_ONCE.get(k);
      return [k, told && told.description === p.description ? told.shown(p) : p];
    }),
  );
  return { ...rest, properties };
}

/** The tool's input schema is the operation's merged input (path, query and body side by side). */
export const inputSchemaOf = (op: Operation): JsonSchema => mergedInputSchema(op);

export function toolSpecOf(op: Operation): ToolSpec {
  const read = op.method === 'GET';
  return {
    op,
    name: op.name,
    // The same title and description as the OpenAPI operation's summary and description: one
    // text, written for a model that reads nothing else (the notes stay in the OpenAPI document).
    title: op.summary,
    description: [
      op.description,
      // The server's instructions say what a bearer token is (and how idempotency_key replays a
      // retry); each tool names only its scope.
      op.scope && `Scope: ${op.scope}.`,
    ]
      .filter(Boolean)
      .join(' '),
    inputSchema: withConventionsTold(compactInputSchema(inputSchemaOf(op))),
    // No outputSchema: with titles and descriptions written for models, the result shapes (15 KB
    // even as bare member lists) would take tools/list past its 40 KB budget, and hosts hand
    // models the input schemas, not the output ones. Results still come as structuredContent;
    // each description says what comes back, and the OpenAPI document has every result schema.
    // A hint is said only where it differs from MCP's default: readOnlyHint and idempotentHint
    // default to false, destructiveHint and openWorldHint to true.
    annotations: read
      ? { readOnlyHint: true, openWorldHint: false }
      : {
          destructiveHint: op.method === 'DELETE',
          ...(op.method === 'PUT' || op.method === 'DELETE' ? { idempotentHint: true } : {}),
          ...(op.openWorld ? {} : { openWorldHint: false }),
        },
    keys: {
      path: new Set(Object.keys(op.params?.properties ?? {})),
      query: new Set(Object.keys(op.query?.properties ?? {})),
      body: new Set(Object.keys(op.body?.properties ?? {})),
    },
  };
}

/** Every tool's spec. */
export const toolSpecsOf = (ops: Operation[]): ToolSpec[] => ops.map(toolSpecOf);

function pick(args: Record<string, unknown>, keys: Set<string>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in args) out[k] = args[k];
  return out;
}

const invalidArguments = invalidFields;

/**
 * Checks tool arguments with the same validator as REST (no string conversion: MCP arguments are
 * typed JSON). Arguments the operation does not know are named one by one, not as "(root)".
 */
export function validateArguments(spec: ToolSpec, raw: unknown): Record<string, unknown> {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw invalidArguments([{ field: '(root)', message: 'arguments must be a JSON object' }]);
  }
  const { [IDEMPOTENCY_ARGUMENT]: key, ...args } = (raw ?? {}) as Record<string, unknown>;
  const { path, query, body } = spec.keys;
  const unknown: FieldIssue[] = Object.keys(args)
    .filter((k) => !path.has(k) && !query.has(k) && !body.has(k))
    .map((field) => ({ field, message: 'is not a known field' }));
  // The idempotency key is not operation input: checked here, handed on as the header would be.
  if (key !== undefined) {
    const problem = spec.op.idempotent ? keyProblem(key) : 'is not a known field';
    if (problem) unknown.push({ field: IDEMPOTENCY_ARGUMENT, message: problem });
  }
  try {
    const input = validateInput(
      spec.op,
      {
        path: pick(args, path),
        query: pick(args, query),
        body: spec.op.body ? pick(args, body) : undefined,
      },
      { convert: false },
    );
    if (unknown.length) throw invalidArguments(unknown);
    return input;
  } catch (err) {
    if (!(err instanceof DomainError) || err.kind !== 'invalid' || !err.fields.length) throw err;
    // One arguments object on MCP: where REST would carry a field (path, query, body) is noise here.
    const fields = err.fields.map(({ field, message }) => ({ field, message }));
    throw invalidArguments([...unknown.filter((u) => !fields.some((f) => f.field === u.field)), ...fields]);
  }
}

/** What a tool call came to: the operation's answer, or the tool result that reports its error. */
export type ToolOutcome = { out: Executed } | { failed: ToolResult };

/**
 * Runs one tool call: validate, execute through the same cache as REST. Domain errors become tool
 * results with isError and the problem JSON REST would send, so the model can read them and
 * correct its call; they are not protocol errors.
 */
export async function runTool(
  spec: ToolSpec,
  rawArgs: unknown,
  ctx: OperationContext,
  deps: {
    siteUrl: string;
    logError: (err: unknown, meta: { requestId: string; operation: string }) => void;
  },
  /** The validated input and cache key of these arguments when known (the fast path remembers them); validated here otherwise. */
  plan?: (spec: ToolSpec, rawArgs: unknown) => { input: Record<string, unknown>; key: string },
): Promise<ToolOutcome> {
  try {
    const known = plan?.(spec, rawArgs);
    const input = known ? known.input : validateArguments(spec, rawArgs);
    const key = spec.op.idempotent ? (rawArgs as Record<string, unknown> | undefined)?.[IDEMPOTENCY_ARGUMENT] : undefined;
    // The argument wins over a header sent on the HTTP request.
    return { out: await execute(spec.op, input, typeof key === 'string' ? { ...ctx, idempotencyKey: toHeaderValue(key) } : ctx, known?.key) };
  } catch (err) {
    if (!(err instanceof DomainError) && !isAbandoned(err)) deps.logError(err, { requestId: ctx.requestId, operation: spec.op.name });
    const problem = { ...problemFromError(deps.siteUrl, err), instance: ctx.requestId };
    return { failed: { content: [{ type: 'text', text: JSON.stringify(problem) }], isError: true } };
  }
}

/** The tool result of an answer: the JSON as text, and as structuredContent. */
export const toolResultOf = (out: Executed): ToolResult => ({
  content: [{ type: 'text', text: out.body }],
  structuredContent: JSON.parse(out.body) as Record<string, unknown>,
});

/** Runs one tool call and shapes its result (see runTool). */
export async function callTool(spec: ToolSpec, rawArgs: unknown, ctx: OperationContext, deps: Parameters<typeof runTool>[3]): Promise<ToolResult> {
  const outcome = await runTool(spec, rawArgs, ctx, deps);
  return 'out' in outcome ? toolResultOf(outcome.out) : outcome.failed;
}

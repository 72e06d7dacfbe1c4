// What an agent reads before its first call: tools/list as served, held to what lets a model with
// no other context call each tool right the first time, and to the size every agent pays for.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { lintTools } from '../../test/schema-portability.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { operations } from '../registry/index.ts';
import { IDEMPOTENCY_ARGUMENT } from '../http/idempotency.ts';

interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { properties?: Record<string, any>; required?: string[] };
  outputSchema?: unknown;
}

let app: TestApp;
let text = '';
let tools: Tool[] = [];
beforeAll(async () => {
  app = await startTestApp({ socket: false });
  const res = await app.fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  text = await res.text();
  tools = JSON.parse(text).result.tools;
});
afterAll(() => app.stop());

const toolOf = (name: string) => tools.find((t) => t.name === name)!;
/** Sentences of a text: stops followed by a space or the end, not those of "e.g." or "i.e.". */
const sentences = (s: string) => s.split(/(?<!\b(?:e\.g|i\.e))[.!?](?=\s|$)/).filter((p) => p.trim()).length;
/** Arguments whose meaning the server's instructions tell once for every tool. */
const TOLD_ONCE = new Set(['page', 'per_page', IDEMPOTENCY_ARGUMENT]);

test('tools/list stays under 40 KB', () => {
  // Measured on 41 tools: 39.7 KB before titles and descriptions written for models (each tool then
  // had only its first sentence, output schemas with type lists); 35.5 KB after, with titles,
  // two-to-four-sentence descriptions and no output schemas.
  console.log(`tools/list: ${text.length} bytes for ${tools.length} tools`);
  expect(text.length).toBeLessThan(40_000);
});

test("the MCP Inspector's strict check finds nothing", () => {
  const findings = lintTools(tools);
  console.log(`inspector strict check: ${findings.filter((f) => f.severity === 'error').length} errors, ${findings.length} findings`);
  expect(findings).toEqual([]);
  // The check is not vacuous: the nullable spelling tools/list used before is a warning, and a bare true an error.
  expect(lintTools([{ name: 'x', inputSchema: { type: 'object', properties: { a: { type: ['string', 'null'] }, b: true, c: {} } } }])).toEqual([
    { tool: 'x', schema: 'inputSchema', path: '.properties.a', rule: 'type-union', severity: 'warning' },
    { tool: 'x', schema: 'inputSchema', path: '.properties.b', rule: 'boolean-schema', severity: 'error' },
    { tool: 'x', schema: 'inputSchema', path: '.properties.c', rule: 'untyped-schema', severity: 'warning' },
  ]);
});

test('nothing refers to a document the client cannot see', () => {
  expect(text).not.toMatch(/\bspec\b|\bspec's\b|\bsections? [0-9]|\bissue [0-9]/i);
});

describe('each tool has a title and a description for a model that knows nothing else', () => {
  test.each(operations.map((op) => [op.name, op] as const))('%s', (name, op) => {
    const tool = toolOf(name);
    const wrong: string[] = [];
    if (!tool) wrong.push('not listed');
    else {
      if (!tool.title || tool.title !== op.summary) wrong.push('title: the operation summary, a short title');
      else if (/\.$/.test(tool.title) || tool.title.length > 60) wrong.push('title: at most 60 characters, no full stop');
      const own = op.description;
      const n = sentences(own);
      if (n < 2 || n > 4) wrong.push(`description: ${n} sentences, want 2 to 4 (what it does, when to use it, what it needs, what comes back)`);
      if (op.scope && !tool.description?.includes(`Scope: ${op.scope}.`)) wrong.push(`description: names its scope ${op.scope}`);
      if (tool.description !== [own, op.scope && `Scope: ${op.scope}.`].filter(Boolean).join(' '))
        wrong.push('description: the same text as the OpenAPI operation');
    }
    expect({ tool: name, wrong }).toEqual({ tool: name, wrong: [] });
  });
});

/**
 * Values with a format a model could get wrong: identifiers, slugs or names, dates and weeks,
 * money, codes, URLs and addresses (free text such as a title or a story needs none).
 */
const FORMAT_NAMES = /slug|(^|_)id$|^[ab]$|week|date|url|email|country|number|cents|product|categor|domain|^listing$|^fields$|socials|apply_to|^q$/;
function needsExample(name: string, whole: any): boolean {
  const own = whole.anyOf?.find((b: any) => b.type !== 'null') ?? whole;
  if (own.enum || own.const !== undefined || own.anyOf || own.type === 'boolean') return false;
  // A pattern that only refuses blank text (\S) is no format.
  return (
    FORMAT_NAMES.test(name) ||
    (own.pattern !== undefined && own.pattern !== '\\S') ||
    own.format !== undefined ||
    own.type === 'integer' ||
    own.type === 'number'
  );
}
const inputsOf = (op: (typeof operations)[number]) =>
  Object.fromEntries([op.params, op.query, op.body].flatMap((s) => Object.entries(s?.properties ?? {})).map(([k, v]) => [k, JSON.parse(JSON.stringify(v))]));

describe('each argument with a format states it with an example value', () => {
  test.each(operations.map((op) => [op.name, op] as const))('%s', (name, op) => {
    const missing: string[] = [];
    const schema = toolOf(name).inputSchema as { properties?: Record<string, any>; $defs?: Record<string, any> };
    // A schema shared between arguments is shown once under $defs and referenced.
    const shown = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, v.$ref ? schema.$defs?.[v.$ref.replace('#/$defs/', '')] : v]));
    const hasExample = (d: unknown) => typeof d === 'string' && /\be\.g\. \S/.test(d);
    for (const [arg, whole] of Object.entries(inputsOf(op)) as [string, any][]) {
      if (TOLD_ONCE.has(arg)) continue;
      if (needsExample(arg, whole) && !hasExample(shown[arg]?.description)) missing.push(`${arg}: no "e.g. <value>" in the description tools/list shows`);
      // The members of a list's items (an order's items) are told the same way.
      const item = (whole.anyOf?.find((b: any) => b.type !== 'null') ?? whole).items;
      const shownItem = shown[arg]?.items ?? shown[arg]?.anyOf?.[0]?.items;
      for (const [member, m] of Object.entries((item?.properties ?? {}) as Record<string, any>))
        if (needsExample(member, m) && !hasExample(shownItem?.properties?.[member]?.description))
          missing.push(`${arg}[].${member}: no "e.g. <value>" in the description tools/list shows`);
    }
    expect({ tool: name, missing }).toEqual({ tool: name, missing: [] });
  });
});

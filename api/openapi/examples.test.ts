// Every operation carries a realistic call and its answers (see OperationExamples), and every
// example in the OpenAPI document passes its own schema: the examples cannot drift from the API.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'bun:test';
import { ERROR_CODES } from '../../core/errors/index.ts';
import { PROBLEM_KINDS, problemKindOf } from '../http/problem.ts';
import { operations } from '../registry/index.ts';
import { buildOpenApi } from './document.ts';
import { renderDocsPage } from './docs-page.tsx';
import { documentForDocs } from './reference-ui.tsx';

const SITE = 'https://launchpad.example';
const doc = buildOpenApi(operations, SITE) as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'components', components: doc.components });

/** The schema's complaints about a value, as short strings (empty when it passes). */
function problemsOf(schema: object, value: unknown): string[] {
  // The Problem schema is referenced from the document's components.
  const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"components#/components/'));
  const validate = ajv.compile(resolved);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}

const entries = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
const entryOf = (name: string) => entries.find((e) => e.operationId === name);
const hasInput = (op: (typeof operations)[number]) => [op.params, op.query, op.body].some((s) => s && Object.keys(s.properties).length > 0);

describe('every operation has examples', () => {
  test.each(operations.map((op) => [op.name, op] as const))('%s', (name, op) => {
    const missing: string[] = [];
    if (!op.examples) missing.push('examples (input, output and error in its definition)');
    else {
      if (hasInput(op) && !op.examples.input) missing.push('examples.input (it takes parameters or a body)');
      const known = new Set([op.params, op.query, op.body].flatMap((s) => Object.keys(s?.properties ?? {})));
      for (const k of Object.keys(op.examples.input ?? {})) if (!known.has(k)) missing.push(`examples.input.${k} is not an input of the operation`);
    }
    expect({ operation: name, missing }).toEqual({ operation: name, missing: [] });
  });
});

describe('every example in the OpenAPI document passes its schema', () => {
  test.each(operations.map((op) => [op.name, op] as const))('%s', (name, op) => {
    const entry = entryOf(name);
    const found: string[] = [];
    for (const p of entry.parameters ?? []) {
      if (p.in === 'header') continue;
      if (p.example === undefined) {
        if (p.required) found.push(`parameter ${p.name}: no example`);
        continue;
      }
      for (const e of problemsOf(p.schema, p.example)) found.push(`parameter ${p.name}: ${e}`);
    }
    const body = entry.requestBody?.content['application/json'];
    if (body) {
      if (body.example === undefined && entry.requestBody.required) found.push('request body: no example');
      if (body.example !== undefined) for (const e of problemsOf(body.schema, body.example)) found.push(`request body${e.replace('(root)', '')}`);
    }
    const success = String(op.status ?? 200);
    const errorStatus = op.examples ? String(op.examples.error.status) : '';
    for (const [status, response] of Object.entries(entry.responses) as [string, any][]) {
      const media = response.content && (Object.values(response.content)[0] as any);
      if (!media) continue;
      if (media.example === undefined) {
        if (status === success || status === errorStatus) found.push(`response ${status}: no example`);
        continue;
      }
      for (const e of problemsOf(media.schema, media.example)) found.push(`response ${status}: ${e}`);
    }
    if (op.examples) {
      const { status, code } = op.examples.error;
      if (!Object.hasOwn(ERROR_CODES, code)) found.push(`error: ${code} is not an error code`);
      else if (PROBLEM_KINDS[problemKindOf(code)].status !== status)
        found.push(`error: ${code} is answered with ${PROBLEM_KINDS[problemKindOf(code)].status}, not ${status}`);
    }
    expect({ operation: name, found }).toEqual({ operation: name, found: [] });
  });

  test('a wrong example is caught', () => {
    const get = operations.find((o) => o.name === 'get_listing')!;
    expect(
      problemsOf(entryOf('get_listing').responses['200'].content['application/json'].schema, { ...(get.examples!.output as object), votes: 'many' }),
    ).toEqual(['/votes must be integer']);
  });
});

test('the document /docs renders carries the examples; the plain reference shows each call and answer', () => {
  const forDocs = JSON.parse(documentForDocs(doc, SITE));
  expect(forDocs.paths['/listings/{slug}'].get.responses['200'].content['application/json'].example.slug).toBe('relaydesk');
  const html = renderDocsPage(operations, SITE);
  for (const op of operations.filter((o) => o.examples)) {
    const section = html.slice(html.indexOf(`id="${op.name}"`));
    expect({ operation: op.name, shown: section.includes('<h4>Example</h4>') }).toEqual({ operation: op.name, shown: true });
  }
  expect(html).toContain('GET /api/v1/listings/relaydesk');
});

test('examples before and after', () => {
  const count = entries.reduce(
    (n, e) =>
      n +
      (e.parameters ?? []).filter((p: any) => p.example !== undefined).length +
      (e.requestBody?.content['application/json'].example !== undefined ? 1 : 0) +
      Object.values(e.responses).filter((r: any) => r.content && (Object.values(r.content)[0] as any).example !== undefined).length,
    0,
  );
  // Before the examples the document had none, and /docs showed "name": "string".
  console.log(`OpenAPI examples: ${count}`);
  expect(count).toBeGreaterThanOrEqual(operations.length * 2);
});

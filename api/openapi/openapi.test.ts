import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { operations } from '../registry/index.ts';
import { ERROR_CODES } from '../../core/errors/index.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ socket: false });
});
afterAll(() => app.stop());

test('the OpenAPI document passes a standard OpenAPI 3.1 validator', async () => {
  const res = await app.get(`${app.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.version).toBe('1.0.0');
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test('the OpenAPI document has exactly the registry operations', async () => {
  const doc = await (await app.get(`${app.url}/api/v1/openapi.json`)).json();
  const ids = Object.values(doc.paths)
    .flatMap((p: any) => Object.values(p).map((o: any) => o.operationId))
    .sort();
  expect(ids).toEqual(operations.map((o) => o.name).sort());
  for (const op of operations) {
    const entry = doc.paths[op.path][op.method.toLowerCase()];
    const names = (entry.parameters ?? [])
      .filter((p: any) => p.in !== 'header')
      .map((p: any) => p.name)
      .sort();
    expect(names).toEqual([...Object.keys(op.params?.properties ?? {}), ...Object.keys(op.query?.properties ?? {})].sort());
  }
});

test('the docs page lists every operation and links the OpenAPI document and MCP', async () => {
  const res = await app.get(`${app.url}/docs`);
  expect(res.headers.get('content-type')).toContain('text/html');
  const html = await res.text();
  for (const op of operations) expect(html).toContain(`id="${op.name}"`);
  expect(html).toContain('/api/v1/openapi.json');
  expect(html).toContain('/mcp');
});

test('parameters with a default are optional in the document', async () => {
  const doc = await (await app.get(`${app.url}/api/v1/openapi.json`)).json();
  for (const path of Object.values(doc.paths) as any[]) {
    for (const op of Object.values(path) as any[]) {
      for (const p of op.parameters ?? [])
        if (p.schema?.default !== undefined) expect([op.operationId, p.name, p.required]).toEqual([op.operationId, p.name, false]);
    }
  }
});

test('the document lists every error code with its status, problem type and meaning', async () => {
  const doc = await (await app.get(`${app.url}/api/v1/openapi.json`)).json();
  const codes = Object.keys(ERROR_CODES).sort();
  expect(doc.components.schemas.Problem.required).toContain('code');
  expect([...doc.components.schemas.Problem.properties.code.enum].sort()).toEqual(codes);
  expect(doc['x-error-codes'].map((c: any) => c.code).sort()).toEqual(codes);
  expect(doc['x-error-codes'].find((c: any) => c.code === 'draft_in_progress')).toEqual({
    code: 'draft_in_progress',
    status: 409,
    type: `${app.url}/problems/conflict`,
    about: ERROR_CODES.draft_in_progress.about,
  });
  expect(doc['x-error-codes'].find((c: any) => c.code === 'unavailable')).toMatchObject({ status: 503, type: `${app.url}/problems/service-unavailable` });
  for (const code of codes) expect(doc.info.description).toContain(`| \`${code}\` |`);
});

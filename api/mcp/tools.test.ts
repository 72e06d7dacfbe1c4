import { type TObject, Type } from '@sinclair/typebox';
import { describe, expect, test } from 'bun:test';
import type { DomainError } from '../../core/errors/index.ts';
import { defineOperation } from '../registry/operation.ts';
import { ListOf, Paging, Slug } from '../registry/schemas.ts';
import { INSTRUCTIONS } from './mount.ts';
import { compactInputSchema } from './compact-schema.ts';
import { inputSchemaOf, toolSpecOf, validateArguments } from './tools.ts';

// An operation with inputs in all three places, so the merge and the split are both exercised
// whatever the registry holds today.
const op = defineOperation({
  name: 'edit_thing',
  method: 'PATCH',
  path: '/things/{slug}',
  tag: 'Test',
  scope: null,
  summary: 'Edit a thing.',
  description: 'Changes a thing.',
  params: Type.Object({ slug: Slug() }, { additionalProperties: false }),
  query: Type.Object(
    { ...Paging, sort: Type.Optional(Type.Union([Type.Literal('new'), Type.Literal('old')], { default: 'new' })) },
    { additionalProperties: false },
  ),
  body: Type.Object(
    { title: Type.String({ maxLength: 10 }), tags: Type.Optional(Type.Array(Type.String(), { maxItems: 2 })) },
    { additionalProperties: false },
  ),
  notFoundParams: ['slug'],
  output: Type.Object({ ok: Type.Boolean() }),
  handler: async () => ({ ok: true }),
});
const spec = toolSpecOf(op);

const issuesOf = (args: unknown) => {
  try {
    validateArguments(spec, args);
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a validation error');
};

describe('tool input schema', () => {
  test('merges path, query and body properties into one closed object', () => {
    const s = inputSchemaOf(op) as any;
    expect(s.type).toBe('object');
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties).sort()).toEqual(['page', 'per_page', 'slug', 'sort', 'tags', 'title']);
    // page and per_page are required in TypeBox but have defaults: callers need not send them.
    expect(s.required.sort()).toEqual(['slug', 'title']);
    expect(s.properties.per_page).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(JSON.stringify(s)).toBe(JSON.stringify(JSON.parse(JSON.stringify(s))));
  });

  test('an operation without inputs takes an empty object', () => {
    const none = defineOperation({
      name: 'x',
      method: 'GET',
      path: '/x',
      tag: 'T',
      scope: null,
      summary: 'X',
      description: '',
      output: Type.Object({}),
      handler: async () => ({}),
    });
    expect(inputSchemaOf(none)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(toolSpecOf(none).annotations.readOnlyHint).toBe(true);
  });

  test('title, description and hints come from the operation; a hint at its default is left out', () => {
    // The same title and text as the OpenAPI operation: the summary, and the whole description.
    expect(spec.title).toBe('Edit a thing.');
    expect(toolSpecOf(defineOperation({ ...op, name: 'x', description: 'Changes a thing. Then more.' })).description).toBe('Changes a thing. Then more.');
    const scoped = toolSpecOf(defineOperation({ ...op, name: 'y', scope: 'listings:write' }));
    expect(scoped.description).toBe('Changes a thing. Scope: listings:write.');
    // MCP's defaults: readOnlyHint and idempotentHint false, destructiveHint and openWorldHint true.
    expect(spec.annotations).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(toolSpecOf(defineOperation({ ...op, name: 'z', method: 'DELETE' })).annotations).toEqual({
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    // An operation that reads other websites or e-mails people leaves the open world at its default.
    expect(toolSpecOf(defineOperation({ ...op, name: 'w', openWorld: true })).annotations).toEqual({ destructiveHint: false });
    expect(toolSpecOf(defineOperation({ ...op, name: 'v', method: 'GET' })).annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    // Results come as structuredContent; their schemas are in the OpenAPI document, not tools/list.
    expect(spec).not.toHaveProperty('outputSchema');
  });
});

describe('compact input schemas', () => {
  test('a nullable value is anyOf with null, its description beside the union; no type lists', () => {
    const schema = compactInputSchema({
      type: 'object',
      properties: {
        tagline: { anyOf: [{ type: 'string', maxLength: 200, description: 'One line.' }, { type: 'null' }] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    }) as any;
    expect(schema.properties.tagline).toEqual({ description: 'One line.', anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] });
    expect(schema.properties.either).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(JSON.stringify(schema)).not.toContain('"type":[');
  });

  test('below the arguments only a description with an example value stays', () => {
    const schema = compactInputSchema({
      type: 'object',
      properties: {
        items: {
          type: 'array',
          description: 'What to order.',
          items: {
            type: 'object',
            properties: { week: { type: 'string', description: 'A Monday, e.g. 2026-12-14. More.' }, note: { type: 'string', description: 'Free text.' } },
          },
        },
      },
    }) as any;
    expect(schema.properties.items.description).toBe('What to order.');
    expect(schema.properties.items.items.properties).toEqual({ week: { type: 'string', description: 'A Monday, e.g. 2026-12-14.' }, note: { type: 'string' } });
  });

  test('a constant a bare type admits, and the integer bound TypeBox ids carry, go from inputs', () => {
    const schema = compactInputSchema({
      type: 'object',
      properties: {
        url: {
          anyOf: [
            { const: '', type: 'string' },
            { type: 'string', format: 'uri' },
          ],
          description: 'A link; empty clears it.',
        },
        // Below the arguments the format goes, and with it all the empty string added.
        socials: {
          type: 'object',
          properties: {
            x: {
              anyOf: [
                { const: '', type: 'string' },
                { type: 'string', format: 'uri' },
              ],
            },
          },
        },
        size: {
          anyOf: [
            { const: 's', type: 'string' },
            { const: 'm', type: 'string' },
          ],
        },
        id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        count: { type: 'integer', minimum: 1, maximum: 50 },
      },
    }) as any;
    expect(schema.properties.url.anyOf).toEqual([
      { const: '', type: 'string' },
      { type: 'string', format: 'uri' },
    ]);
    expect(schema.properties.socials.properties.x).toEqual({ type: 'string' });
    expect(schema.properties.size).toEqual({ type: 'string', enum: ['s', 'm'] });
    expect(schema.properties.id).toEqual({ type: 'integer', minimum: 1 });
    expect(schema.properties.count).toEqual({ type: 'integer', minimum: 1, maximum: 50 });
  });

  test("a description's list that only repeats the enum or the members goes; other parentheses stay", () => {
    const schema = compactInputSchema({
      type: 'object',
      properties: {
        field: { type: 'string', enum: ['name', 'tagline', 'story'], description: 'A field (name, tagline or story); see (the docs).' },
        links: { type: 'object', properties: { x: { type: 'string' }, github: { type: 'string' } }, description: 'Platform (x, github, myspace) to link.' },
        socials: { type: 'object', properties: { x: { type: 'string' }, github: { type: 'string' } }, description: 'Platform (x, github) to link.' },
      },
    }) as any;
    expect(schema.properties.field.description).toBe('A field; see (the docs).');
    expect(schema.properties.links.description).toBe('Platform (x, github, myspace) to link.');
    expect(schema.properties.socials.description).toBe('Platform to link.');
  });
});

describe('tool arguments', () => {
  test('valid arguments become the merged input, with defaults', () => {
    expect(validateArguments(spec, { slug: 'abc', title: 'Hi', tags: ['a'] })).toEqual({
      slug: 'abc',
      page: 1,
      per_page: 20,
      sort: 'new',
      title: 'Hi',
      tags: ['a'],
    });
  });

  test('every bound is checked and named', () => {
    const e = issuesOf({ slug: 'abc', title: 'far too long a title', per_page: 101, page: 0, sort: 'sideways', tags: ['a', 'b', 'c'] });
    expect(e.kind).toBe('invalid');
    expect(e.fields.map((f) => f.field).sort()).toEqual(['page', 'per_page', 'sort', 'tags', 'title']);
    expect(e.fields.every((f) => !('in' in f))).toBe(true);
  });

  test('strings are not converted to numbers', () => {
    expect(issuesOf({ slug: 'abc', title: 'Hi', page: '2' }).fields).toEqual([expect.objectContaining({ field: 'page' })]);
  });

  test('a missing required argument is named', () => {
    expect(issuesOf({ slug: 'abc' }).fields.map((f) => f.field)).toEqual(['title']);
  });

  test('unknown arguments are named one by one, next to other problems', () => {
    const e = issuesOf({ slug: 'abc', title: 'Hi', colour: 'red', size: 2, per_page: 0 });
    expect(e.fields.map((f) => f.field)).toEqual(['colour', 'size', 'per_page']);
    expect(e.fields[0].message).toBe('is not a known field');
  });

  test('arguments that are not an object are rejected', () => {
    expect(issuesOf([1, 2]).fields[0].field).toBe('(root)');
    expect(issuesOf('x').fields[0].field).toBe('(root)');
  });

  test('a malformed identifier in a not-found parameter is a not-found error, as on REST', () => {
    const e = issuesOf({ slug: 'NOT A SLUG', title: 'Hi' });
    expect(e.kind).toBe('not_found');
  });
});

describe('conventions told once in the instructions', () => {
  const returning = (name: string, output: TObject, more: Partial<typeof op> = {}) =>
    defineOperation({ ...op, ...more, name, output, handler: async () => ({}) as never });
  const writing = returning('kept', ListOf(Type.Object({ id: Type.Integer() })), { idempotent: true });
  const s = toolSpecOf(writing);

  test('a tool does not repeat the closed object, the paging descriptions or the idempotency key bounds', () => {
    expect(s.inputSchema).not.toHaveProperty('additionalProperties');
    expect(s.inputSchema.properties).toMatchObject({
      page: { type: 'integer', minimum: 1, maximum: 1000, default: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      idempotency_key: { type: 'string' },
    });
    const props = s.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.page).not.toHaveProperty('description');
    expect(props.idempotency_key).toEqual({ type: 'string' });
    // The instructions say each of them once.
    expect(INSTRUCTIONS).toContain('idempotency_key');
    expect(INSTRUCTIONS).toContain('1 to 255 printable ASCII');
    expect(INSTRUCTIONS).toMatch(/page \(from 1\) and per_page/);
    expect(INSTRUCTIONS).toContain('has_more');
    expect(INSTRUCTIONS).toContain('refuses arguments');
  });

  test('an argument named like a convention but meaning something else keeps its description', () => {
    const other = defineOperation({
      ...op,
      name: 'other_page',
      query: Type.Object({ page: Type.String({ description: 'The wiki page to read.' }) }),
      body: undefined,
    });
    expect((toolSpecOf(other).inputSchema.properties as any).page).toEqual({ type: 'string', description: 'The wiki page to read.' });
  });
});

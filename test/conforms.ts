import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { expect } from 'bun:test';
import '../api/http/validate.ts'; // registers the string formats the schemas use (date, email, ...)

/** A response body must match the operation's declared output schema (OpenAPI is generated from it). */
export const conforms = (schema: TSchema, body: unknown) => expect([...Value.Errors(schema, body)].map((e) => `${e.path} ${e.message}`)).toEqual([]);

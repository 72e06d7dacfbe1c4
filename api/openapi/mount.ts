import type { Elysia } from 'elysia';
import type { Config } from '../../sql/config.ts';
import type { Operation } from '../registry/operation.ts';

export function mountOpenApi(_app: Elysia, _prefix: string, _ops: Operation[], _config: Config) {
  // filled in by the OpenAPI work
}

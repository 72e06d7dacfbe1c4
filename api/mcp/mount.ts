import type { Elysia } from 'elysia';
import type { Config } from '../../sql/config.ts';
import type { ContextFactory, ErrorLogger } from '../http/rest.ts';
import type { Operation } from '../registry/operation.ts';

export function mountMcp(_app: Elysia, _ops: Operation[], _deps: { makeContext: ContextFactory; config: Config; logError: ErrorLogger }) {
  // filled in by the MCP work
}

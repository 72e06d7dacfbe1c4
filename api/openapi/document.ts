import type { TObject, TSchema } from '@sinclair/typebox';
import type { ExampleProblem, Operation } from '../registry/operation.ts';
import { plainSchema, requiredNames } from '../registry/inputs.ts';
import { PROBLEM_KINDS, problemKindOf } from '../http/problem.ts';
import { ERROR_CODES, type ErrorCode } from '../../core/errors/index.ts';
import { isCacheable } from '../http/execute.ts';
import { IDEMPOTENCY_ARGUMENT } from '../http/idempotency.ts';
import { SCOPE_DESCRIPTIONS } from '../../core/auth/scopes.ts';
import { PRODUCT_NAME } from '../../sql/product.ts';

const plain = (s: TSchema) => plainSchema(s) as Record<string, any>;

const problemRef = { $ref: '#/components/schemas/Problem' };
const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: problemRef } } });

function parameters(schema: TObject | undefined, where: 'path' | 'query', example: Record<string, unknown> = {}) {
  if (!schema) return [];
  const required = new Set(requiredNames(schema));
  return Object.entries(schema.properties).map(([name, s]) => {
    const { description, ...rest } = plain(s as TSchema);
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description,
      schema: rest,
      ...(example[name] === undefined ? {} : { example: example[name] }),
    };
  });
}

/** The members of an example input that belong to one of the operation's input objects. */
export function examplePart(schema: TObject | undefined, input: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!schema || !input) return undefined;
  const part = Object.fromEntries(Object.entries(input).filter(([k]) => k in schema.properties));
  return Object.keys(part).length ? part : undefined;
}

/** An operation's example error as the whole problem the service answers. */
export function exampleProblem(siteUrl: string, error: ExampleProblem) {
  const kind = problemKindOf(error.code);
  return {
    type: `${siteUrl}/problems/${kind}`,
    title: PROBLEM_KINDS[kind].title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    instance: '01JD3N8W4Q7XK2V9M5T6R1B8ZC',
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

/** A response with its example body added (a problem response gains it under its one media type). */
function withExample(response: unknown, example: unknown): Record<string, any> {
  const r = response as Record<string, any>;
  const [type, media] = Object.entries(r.content ?? {})[0] ?? [];
  return type ? { ...r, content: { [type]: { ...(media as object), example } } } : r;
}

/** An OpenAPI parameter: the operation's path and query inputs, and headers such as Idempotency-Key. */
type Parameter = Omit<ReturnType<typeof parameters>[number], 'in'> & { in: 'path' | 'query' | 'header' };

const IDEMPOTENCY_NOTE = [
  'Operations that take an `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header) make retried writes safe.',
  'The key is 1 to 255 printable ASCII characters, sent as a structured-field string (`Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`) or bare; a UUID is recommended; anything else is 400 naming the header.',
  'Keys are scoped to the account and the operation and kept for at least 24 hours (48 by default; `IDEMPOTENCY_TTL_HOURS`), after which a key counts as new.',
  'The same key with the same input (path, query and body) replays the stored status and body, with `Idempotent-Replayed: true`; errors the operation answered (4xx) replay too.',
  'The same key with a different input is 422; a retry while the first request is still running is 409 with `Retry-After`.',
  'Failures on our side (5xx) and rate limits store nothing, so a retry with the same key runs again. Without the header the operation simply runs.',
  `MCP tools of these operations take the key as the optional \`${IDEMPOTENCY_ARGUMENT}\` argument (or the same header on the HTTP request).`,
].join(' ');

const AUTH_NOTE = (siteUrl: string) =>
  [
    'Authentication: public reads need no credential (a valid one is accepted; an invalid one is 401, so a mistyped key never reads as anonymous).',
    'Authenticated operations take `Authorization: Bearer <API key or OAuth access token>`: missing or invalid → 401 with `WWW-Authenticate` naming the protected resource metadata,',
    'a credential without the operation\'s scope → 403 (`error="insufficient_scope"`), another account\'s object → 404.',
    `API keys (\`ldk_...\`) are made on ${siteUrl}/account/api-keys with any of the scopes account:read, listings:write and orders:write; the secret is shown once and stored only as a hash.`,
    `AI agents sign in with OAuth 2.1 (authorization code + PKCE S256; dynamic client registration or client ID metadata documents):`,
    `authorization server metadata at ${siteUrl}/.well-known/oauth-authorization-server, protected resource metadata at ${siteUrl}/.well-known/oauth-protected-resource/mcp and /api/v1.`,
    'Access tokens are bound to the resource they were issued for (RFC 8707): a token for /mcp is refused on /api/v1 and the other way round.',
  ].join(' ');

const RATE_NOTE = [
  'Rate limits: budgets per credential (reads and writes separately) and, without a credential, per client address (IPv6 by /64), shared by every instance.',
  'Every response carries `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers: `"anonymous_read";q=600;w=60` and `"anonymous_read";r=599;t=1`);',
  'past the budget the answer is 429 with `Retry-After`. The numbers are configuration; the defaults are 600 anonymous reads, 1200 authenticated reads and 120 writes a minute.',
].join(' ');

const RATE_HEADERS = {
  RateLimit: { description: 'Remaining budget and seconds until it is full again (draft-ietf-httpapi-ratelimit-headers).', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The budget that applied: quota and window in seconds.', schema: { type: 'string' } },
};

/** Every error code with the problem kind and status it is answered with, and what it means. */
function errorCodes(siteUrl: string) {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const kind = problemKindOf(code);
    return { code, status: PROBLEM_KINDS[kind].status, type: `${siteUrl}/problems/${kind}`, about: ERROR_CODES[code].about };
  });
}

const CODES_NOTE = (siteUrl: string) =>
  [
    'Error codes: every problem carries `code`, a stable machine code finer than its `type` (new codes may be added; none is renamed or reused). ' +
      "Branch on `code`, not on `detail` (which is for people). The same list is in `x-error-codes`, and each problem type's page lists its codes.",
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...errorCodes(siteUrl).map((c) => `| \`${c.code}\` | ${c.status} | ${c.about.replace(/\|/g, '\\|')} |`),
  ].join('\n');

const DOC_NOTES = [
  'Every error is an RFC 9457 problem (`application/problem+json`) with type, title, status, detail, `code` (below) and, for validation errors (400), `errors`: one entry per offending field with `field` (object keys joined by dots, array positions in brackets, e.g. `items[2].week`), `in` (path, query, body or header) and `message`.',
  'Invalid input is always 400 (never 422), including unknown query parameters and unknown body keys. Unknown paths and resources are 404. Bodies over the size limit are 413.',
  'Public reads send `ETag` and `Cache-Control`; send `If-None-Match` to get 304 Not Modified. Responses are cached for a few seconds and writes invalidate the cache.',
  'Paginated operations take page (1..1000, default 1) and per_page (1..100, default 20) and answer `{ items, page, per_page, total, has_more }`, with `Link` headers (RFC 8288) to the next and previous pages. A 201 carries `Location`, the created resource (or the list that holds it).',
  "Responses of 1 KB and more are compressed (brotli or gzip) when `Accept-Encoding` allows; each encoding has its own ETag (suffixed -br or -gzip), which If-None-Match accepts. A method a path does not take is 405 with `Allow`. Every error carries the request id as `X-Request-Id` and as the problem's `instance`.",
  'CORS: /api/v1 and /mcp may be called from any origin (preflights answered, `Access-Control-Allow-Origin: *`); credentials are bearer tokens only, never cookies, so `Access-Control-Allow-Credentials` is never sent.',
  'Every operation is also an MCP tool of the same name and input schema at `/mcp` (Streamable HTTP; protocol 2026-07-28 and 2025-03-26 to 2025-11-25).',
  IDEMPOTENCY_NOTE,
  RATE_NOTE,
];

export function buildOpenApi(ops: Operation[], siteUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const method = op.method.toLowerCase();
    const input = op.examples?.input;
    const params: Parameter[] = [...parameters(op.params, 'path', input), ...parameters(op.query, 'query', input)];
    if (op.idempotent)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes a retried request safe: the same key with the same input replays the first response (status and body) for at least 24 hours; ' +
          'the same key with another input is 422, and while the first request runs 409. 1 to 255 printable ASCII characters, ' +
          'as a structured-field string ("...") or bare; a UUID is recommended. Keys are per account and operation.',
        schema: { type: 'string', minLength: 1, maxLength: 512 },
      });
    const responses: Record<string, unknown> = {
      [String(op.status ?? 200)]: {
        description: op.status === 201 ? 'Created' : 'OK',
        headers: {
          ...RATE_HEADERS,
          ...(isCacheable(op) ? { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } } : {}),
          ...(op.location ? { Location: { description: 'The created resource (or the list that holds it).', schema: { type: 'string', format: 'uri' } } } : {}),
          ...(op.method === 'GET' && op.query?.properties.page
            ? { Link: { description: 'The next and previous pages (RFC 8288), when there are any.', schema: { type: 'string' } } }
            : {}),
          ...(op.idempotent
            ? {
                'Idempotent-Replayed': {
                  description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
                  schema: { type: 'string', enum: ['true'] },
                },
              }
            : {}),
        },
        content: {
          'application/json': { schema: plain(op.output), ...(op.examples ? { example: op.examples.output } : {}) },
        },
      },
      ...(isCacheable(op) ? { 304: { description: 'Not modified: the If-None-Match ETag still matches.' } } : {}),
      400: problemResponse('Invalid input; `errors` names each offending field.'),
      401: {
        ...problemResponse(op.scope ? 'Missing or invalid credential.' : 'An invalid credential was sent (send none, or a valid one).'),
        headers: { 'WWW-Authenticate': { description: 'Bearer challenge with `resource_metadata` (RFC 9728).', schema: { type: 'string' } } },
      },
      ...(op.scope
        ? {
            403: {
              ...problemResponse('The credential lacks the required scope.'),
              headers: { 'WWW-Authenticate': { description: 'Bearer error="insufficient_scope" with the scope needed.', schema: { type: 'string' } } },
            },
          }
        : {}),
      ...(op.params || /leaderboard|launch_week/.test(op.name) ? { 404: problemResponse('No such resource.') } : {}),
      ...(op.body ? { 413: problemResponse('The body is too large.'), 415: problemResponse('The body is not JSON.') } : {}),
      ...(op.idempotent
        ? {
            409: {
              ...problemResponse('A request with the same Idempotency-Key is still being processed; retry after Retry-After seconds.'),
              headers: { 'Retry-After': { schema: { type: 'integer' } } },
            },
            422: problemResponse('The Idempotency-Key was already used with a different input.'),
          }
        : {}),
      429: {
        ...problemResponse('Rate limited; see Retry-After.'),
        headers: { ...RATE_HEADERS, 'Retry-After': { description: 'Seconds until a request may pass.', schema: { type: 'integer' } } },
      },
      ...Object.fromEntries(Object.entries(op.responses ?? {}).map(([status, about]) => [status, problemResponse(about)])),
      500: problemResponse('Internal error.'),
    };
    if (op.examples) {
      const { status } = op.examples.error;
      responses[status] = withExample(responses[status] ?? problemResponse('See the error codes.'), exampleProblem(siteUrl, op.examples.error));
    }
    const bodyExample = examplePart(op.body, input);
    const description = [op.description, op.notes, op.scope ? `Requires scope \`${op.scope}\`.` : 'Public: no credential needed (a valid one is accepted).']
      .filter(Boolean)
      .join('\n\n');
    (paths[op.path] ??= {})[method] = {
      operationId: op.name,
      summary: op.summary,
      description,
      tags: [op.tag],
      parameters: params.length ? params : undefined,
      requestBody: op.body
        ? {
            required: requiredNames(op.body).length > 0,
            content: { 'application/json': { schema: plain(op.body), ...(bodyExample ? { example: bodyExample } : {}) } },
          }
        : undefined,
      responses,
      security: op.scope ? [{ oauth: [op.scope] }, { apiKey: [] }] : [{}, { oauth: [] }, { apiKey: [] }],
      'x-scope': op.scope ?? undefined,
      'x-mcp-tool': op.name,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_NAME} API`,
      version: '1.0.0',
      description: [
        'A public directory of software products with a weekly launch calendar, leaderboards and awards.',
        ...DOC_NOTES,
        AUTH_NOTE(siteUrl),
        CODES_NOTE(siteUrl),
      ].join('\n\n'),
    },
    'x-error-codes': errorCodes(siteUrl),
    servers: [{ url: `${siteUrl}/api/v1` }],
    tags: [...new Set(ops.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key from ${siteUrl}/account/api-keys: \`Authorization: Bearer ldk_...\`. Its scopes are chosen when it is made.`,
        },
        oauth: {
          type: 'oauth2',
          description:
            'OAuth 2.1 for AI agents and apps: authorization code with PKCE S256, dynamic client registration (RFC 7591) or client ID metadata documents; pass `resource` (RFC 8707) = the API base URL for REST tokens, or the /mcp URL for MCP tokens. Refresh tokens rotate on every use.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${siteUrl}/oauth/authorize`,
              tokenUrl: `${siteUrl}/oauth/token`,
              refreshUrl: `${siteUrl}/oauth/token`,
              scopes: SCOPE_DESCRIPTIONS,
            },
          },
        },
      },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'code'],
          properties: {
            type: {
              type: 'string',
              format: 'uri',
              description: `One of ${Object.keys(PROBLEM_KINDS)
                .map((k) => `${siteUrl}/problems/${k}`)
                .join(', ')}.`,
            },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: {
              type: 'string',
              enum: Object.keys(ERROR_CODES),
              description:
                'The stable machine code of the condition (see the error code table in the description, or `x-error-codes`): ' +
                (Object.keys(ERROR_CODES) as ErrorCode[]).map((c) => `\`${c}\` (${PROBLEM_KINDS[problemKindOf(c)].status})`).join(', ') +
                '.',
            },
            instance: { type: 'string', description: 'The request id.' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: { field: { type: 'string' }, in: { type: 'string', enum: ['path', 'query', 'body', 'header'] }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

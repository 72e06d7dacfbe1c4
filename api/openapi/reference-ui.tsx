import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SCOPE_DESCRIPTIONS } from '../../core/auth/scopes.ts';
import type { Operation } from '../registry/operation.ts';
import { renderDocument } from '../view/document.tsx';
import { DocsReference } from './docs-page.tsx';

/**
 * /docs: the OpenAPI document in Scalar's API reference (the standalone bundle from the
 * @scalar/api-reference npm package, served by us: nothing comes from a CDN, fonts and telemetry
 * are off, and the CSP lets the page reach only this origin). The page opens with what every
 * client needs first (authentication, scopes, rate limits, idempotency, errors, MCP setup) in
 * plain HTML, and keeps the script-free reference in <noscript>.
 */

let bundle: string | null = null;
export function scalarBundle(): string {
  // Read once, on first use: 3.5 MB that only /docs needs.
  bundle ??= readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'), 'utf8');
  return bundle;
}

/** The opening sections, as Markdown for the document's info.description (Scalar renders it first). */
export function docsIntroMarkdown(siteUrl: string): string {
  const scopes = Object.entries(SCOPE_DESCRIPTIONS)
    .map(([s, d]) => `- \`${s}\`: ${d}`)
    .join('\n');
  return `## Authentication
Public reads need no credential. Everything else takes \`Authorization: Bearer <API key or OAuth access token>\`.
Make an API key on [your account's API keys page](${siteUrl}/account/api-keys) (sign in by e-mail link), or let an AI agent sign in with OAuth 2.1 (PKCE, dynamic registration or client ID metadata documents). A missing or invalid credential is 401; a credential without the scope is 403.

\`\`\`sh
curl -H "Authorization: Bearer ldk_..." ${siteUrl}/api/v1/me
\`\`\`

## Scopes
${scopes}

## Rate limits
Budgets per credential (reads and writes separately) and, without a credential, per client address. Every answer carries \`RateLimit-Policy\` and \`RateLimit\`; past the budget the answer is 429 with \`Retry-After\`.

## Idempotency
Writes marked so take an \`Idempotency-Key\` header (a UUID is best). Repeating the key with the same input replays the first answer (\`Idempotent-Replayed: true\`); the same key with other input is 422; a retry while the first still runs is 409.

## Errors
Every error is an RFC 9457 problem (\`application/problem+json\`) with \`type\`, \`title\`, \`status\`, \`detail\` and a stable \`code\`; invalid input is 400 with \`errors\` naming each field.

## MCP setup
The MCP server is at \`${siteUrl}/mcp\` (Streamable HTTP). Every operation here is a tool of the same name. Clients need only the URL; tools that need an account answer 401 and the client signs the person in through OAuth.

\`\`\`json
{ "mcpServers": { "directory": { "url": "${siteUrl}/mcp" } } }
\`\`\``;
}

/** The OpenAPI document for the reference UI: the same document with the opening sections first. */
export function documentForDocs(doc: { info: { description?: string } } & Record<string, unknown>, siteUrl: string): string {
  return JSON.stringify({ ...doc, info: { ...doc.info, description: `${docsIntroMarkdown(siteUrl)}\n\n## About\n${doc.info.description ?? ''}` } });
}

const SCALAR_CONFIG = JSON.stringify({
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  hideClientButton: false,
  layout: 'modern',
});

export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function renderReferencePage(ops: Operation[], siteUrl: string): string {
  return renderDocument(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>API and MCP reference</title>
        <meta
          name="description"
          content="REST and MCP reference of the directory: authentication, scopes, rate limits, idempotency, errors and every operation."
        />
        <link rel="canonical" href={`${siteUrl}/docs`} />
      </head>
      <body>
        <noscript>
          <DocsReference ops={ops} siteUrl={siteUrl} />
        </noscript>
        <script id="api-reference" data-url="/docs/openapi.json" data-configuration={SCALAR_CONFIG} />
        <script src="/docs/scalar.js" />
      </body>
    </html>,
  );
}

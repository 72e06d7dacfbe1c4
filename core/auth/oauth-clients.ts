import { randomUUID } from 'node:crypto';
import { transaction, type Sql } from '../../sql/db.ts';
import { DomainError } from '../errors/index.ts';
import type { Scope } from './scopes.ts';

export type TokenEndpointAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

/** What we keep of a client's metadata beyond the columns (RFC 7591 names). */
export interface ClientExtras {
  /** The scopes the client may ask for; null means any of ours. */
  scope: Scope[] | null;
  grant_types: string[];
  response_types: string[];
  software_id?: string;
  software_version?: string;
}

export interface OAuthClient {
  clientId: string;
  kind: 'registered' | 'metadata_document';
  clientName: string | null;
  clientUri: string | null;
  redirectUris: string[];
  authMethod: TokenEndpointAuthMethod;
  clientSecretHash: string | null;
  extras: ClientExtras;
  createdAt: Date;
  fetchedAt: Date | null;
  expiresAt: Date | null;
}

interface Row {
  client_id: string;
  kind: OAuthClient['kind'];
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
  token_endpoint_auth_method: TokenEndpointAuthMethod;
  client_secret_hash: string | null;
  metadata: ClientExtras;
  created_at: Date;
  fetched_at: Date | null;
  expires_at: Date | null;
}

const fromRow = (r: Row): OAuthClient => ({
  clientId: r.client_id,
  kind: r.kind,
  clientName: r.client_name,
  clientUri: r.client_uri,
  redirectUris: r.redirect_uris,
  authMethod: r.token_endpoint_auth_method,
  clientSecretHash: r.client_secret_hash,
  extras: r.metadata,
  createdAt: r.created_at,
  fetchedAt: r.fetched_at,
  expiresAt: r.expires_at,
});

export interface ClientFields {
  clientName: string | null;
  clientUri: string | null;
  redirectUris: string[];
  authMethod: TokenEndpointAuthMethod;
  extras: ClientExtras;
}

/**
 * Stores a dynamically registered client (RFC 7591). Its client_id is a random UUID, which can
 * never be mistaken for a client ID metadata document URL. Registration is open to anyone, so an
 * address registers at most `perHour` clients an hour (429 registration_rate_limited past that,
 * with the seconds until the oldest of the hour ages out); one address's registrations are
 * serialised so concurrent ones cannot pass the cap together.
 */
export async function insertRegisteredClient(
  sql: Sql,
  fields: ClientFields & { clientSecretHash: string | null },
  from: { address: string; perHour: number },
): Promise<OAuthClient> {
  return transaction(sql, async (t) => {
    await t`select pg_advisory_xact_lock(hashtext('oauth-register'), hashtext(${from.address}))`;
    const [recent] = await t<{ n: number; wait: number | null }[]>`
      select count(*)::int as n, ceil(extract(epoch from min(created_at) + interval '1 hour' - now()))::int as wait
      from oauth_clients where kind = 'registered' and registered_from = ${from.address} and created_at > now() - interval '1 hour'`;
    if (recent.n >= from.perHour) {
      throw new DomainError(
        'registration_rate_limited',
        `This address registered ${recent.n} OAuth clients in the last hour, the most an hour allows; reuse a registered client_id or try again later.`,
        {
          retryAfterSeconds: Math.max(1, recent.wait ?? 1),
        },
      );
    }
    const [row] = await t<Row[]>`
      insert into oauth_clients (client_id, kind, client_name, client_uri, redirect_uris, token_endpoint_auth_method, client_secret_hash, metadata, registered_from)
      values (${randomUUID()}, 'registered', ${fields.clientName}, ${fields.clientUri}, ${fields.redirectUris}, ${fields.authMethod},
              ${fields.clientSecretHash}, ${t.json(fields.extras as never)}, ${from.address.slice(0, 64)})
      returning *`;
    return fromRow(row);
  });
}

export async function findClient(sql: Sql, clientId: string): Promise<OAuthClient | null> {
  if (clientId.length === 0 || clientId.length > 2048) return null;
  const [row] = await sql<Row[]>`select * from oauth_clients where client_id = ${clientId}`;
  return row ? fromRow(row) : null;
}

/**
 * Caches a fetched client ID metadata document. The row is updated in place, never deleted:
 * grants reference it (and deleting a client cascades to its grants).
 */
export async function upsertMetadataDocumentClient(sql: Sql, clientId: string, fields: ClientFields, ttlSeconds: number): Promise<OAuthClient> {
  const [row] = await sql<Row[]>`
    insert into oauth_clients (client_id, kind, client_name, client_uri, redirect_uris, token_endpoint_auth_method, metadata, fetched_at, expires_at)
    values (${clientId}, 'metadata_document', ${fields.clientName}, ${fields.clientUri}, ${fields.redirectUris}, ${fields.authMethod},
            ${sql.json(fields.extras as never)}, now(), now() + make_interval(secs => ${ttlSeconds}))
    on conflict (client_id) do update set
      client_name = excluded.client_name, client_uri = excluded.client_uri, redirect_uris = excluded.redirect_uris,
      token_endpoint_auth_method = excluded.token_endpoint_auth_method, metadata = excluded.metadata,
      fetched_at = excluded.fetched_at, expires_at = excluded.expires_at
    where oauth_clients.kind = 'metadata_document'
    returning *`;
  if (!row) throw new Error(`client_id ${clientId} belongs to a registered client`);
  return fromRow(row);
}

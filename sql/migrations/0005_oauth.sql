-- The OAuth 2.1 authorization server's additions to 0003: what the token endpoint must remember
-- about an authorization request, and the indexes its clean-ups and revocations use.

-- OAuth 2.1 section 4.1.3: the token request must repeat redirect_uri exactly when the
-- authorization request carried it; a client with one registered URI may leave it out of both.
alter table oauth_codes add column redirect_uri_given boolean not null default true;
comment on column oauth_codes.redirect_uri_given is 'Whether the authorization request named redirect_uri (then the token request must repeat it).';

-- The expire_records job deletes codes and tokens a day after they expire.
create index oauth_codes_expires on oauth_codes (expires_at);
create index oauth_tokens_expires on oauth_tokens (expires_at);
-- Deleting a client cascades to its grants; revoking a client's grants looks them up by client.
create index oauth_grants_client on oauth_grants (client_id);

comment on column oauth_grants.resource is 'The RFC 8707 resource (audience) every token of this grant is bound to: {site}/mcp or {site}/api/v1.';
comment on column oauth_clients.expires_at is 'Client ID metadata documents: when the cached copy must be fetched again. Null for registered clients.';
comment on column oauth_clients.metadata is 'The validated client metadata beyond the columns (RFC 7591 names): scope (null: any of ours), grant_types, response_types, software_id, software_version.';

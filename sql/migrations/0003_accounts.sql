-- Accounts and access: sign-in links, sessions, API keys, the OAuth 2.1 authorization server's
-- clients, grants, codes and tokens, idempotency keys and the mail outbox.
-- Every secret (link token, session id, API key, code, token) is stored only as its SHA-256 hex.

alter table users add column last_sign_in_at timestamptz;

create table login_links (
  token_hash text primary key,
  email text not null check (length(email) <= 254),
  -- Where to go after signing in: a path on this site (checked by the edge), never another origin.
  return_to text not null default '/account' check (length(return_to) <= 2048),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index login_links_expires on login_links (expires_at);
comment on table login_links is 'Single-use, expiring e-mailed sign-in links (token stored as its hash).';

create table sessions (
  id_hash text primary key,
  user_id bigint not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_seen_at timestamptz not null default now(),
  ended_at timestamptz
);
create index sessions_user on sessions (user_id);
comment on table sessions is 'Signed-in browser sessions (cookie value stored as its hash); ended_at is sign-out.';

create table api_keys (
  id bigserial primary key,
  user_id bigint not null references users(id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  -- The first characters of the key, shown in lists so people can tell keys apart.
  prefix text not null check (length(prefix) <= 24),
  secret_hash text not null unique,
  scopes text[] not null check (scopes <@ array['account:read', 'listings:write', 'orders:write'] and cardinality(scopes) >= 1),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_user on api_keys (user_id, created_at desc);
comment on table api_keys is 'API keys made on the API keys page or by operators; the secret is shown once and kept only as a hash.';

create table oauth_clients (
  client_id text primary key check (length(client_id) <= 2048),
  -- registered: dynamic client registration (RFC 7591); metadata_document: the client_id is an
  -- https URL of a client ID metadata document, fetched and cached.
  kind text not null check (kind in ('registered', 'metadata_document')),
  client_name text check (length(client_name) <= 200),
  client_uri text check (length(client_uri) <= 2048),
  redirect_uris text[] not null check (cardinality(redirect_uris) between 1 and 20),
  token_endpoint_auth_method text not null default 'none',
  client_secret_hash text,
  metadata jsonb not null default '{}',
  created_at timestamptz not null default now(),
  fetched_at timestamptz,
  expires_at timestamptz
);
comment on table oauth_clients is 'OAuth clients: dynamically registered ones and cached client ID metadata documents.';

create table oauth_grants (
  id bigserial primary key,
  user_id bigint not null references users(id) on delete cascade,
  client_id text not null references oauth_clients(client_id) on delete cascade,
  scopes text[] not null check (scopes <@ array['account:read', 'listings:write', 'orders:write']),
  resource text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index oauth_grants_user on oauth_grants (user_id);
comment on table oauth_grants is 'What a person allowed a client (consent); revoking it revokes every token issued under it.';

create table oauth_codes (
  code_hash text primary key,
  grant_id bigint not null references oauth_grants(id) on delete cascade,
  redirect_uri text not null,
  code_challenge text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
comment on table oauth_codes is 'Single-use, short-lived authorization codes (PKCE S256 challenge kept for the token request).';

create table oauth_tokens (
  token_hash text primary key,
  kind text not null check (kind in ('access', 'refresh')),
  grant_id bigint not null references oauth_grants(id) on delete cascade,
  scopes text[] not null,
  resource text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  -- Refresh rotation: the refresh token that replaced this one.
  replaced_by text
);
create index oauth_tokens_grant on oauth_tokens (grant_id);
comment on table oauth_tokens is 'Access tokens (audience = resource) and rotating refresh tokens.';

create table idempotency_keys (
  user_id bigint not null references users(id) on delete cascade,
  operation text not null,
  key text not null check (length(key) between 1 and 255),
  request_hash text not null,
  state text not null default 'in_flight' check (state in ('in_flight', 'done')),
  response_status int,
  response_body text,
  created_at timestamptz not null default now(),
  -- In flight past this time means the first attempt died; a retry may take the key over.
  locked_until timestamptz not null,
  expires_at timestamptz not null,
  primary key (user_id, operation, key)
);
create index idempotency_keys_expires on idempotency_keys (expires_at);
comment on table idempotency_keys is 'Idempotency-Key records per account and operation: the stored response replays for the same key and body.';

create table mail_outbox (
  id bigserial primary key,
  to_address text not null check (length(to_address) <= 254),
  subject text not null check (length(subject) <= 300),
  body_text text not null,
  body_html text,
  kind text not null check (length(kind) <= 40),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts int not null default 0,
  last_error text
);
create index mail_outbox_created on mail_outbox (created_at desc);
comment on table mail_outbox is 'Every mail the service sends; the send_mail job delivers it by SMTP when SMTP_URL is set, otherwise it stays here for operators (npm run ops -- outbox).';

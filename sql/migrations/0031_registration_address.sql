-- Dynamic client registration is open to anyone: each registration keeps the address it came
-- from, so one address registers at most OAUTH_REGISTRATIONS_PER_HOUR clients an hour (counted here).
alter table oauth_clients add column registered_from text check (length(registered_from) <= 64);
comment on column oauth_clients.registered_from is 'The client address a dynamic registration came from (RFC 7591 clients only), for the per-address registration cap.';
create index oauth_clients_registered_from on oauth_clients (registered_from, created_at) where kind = 'registered';

import { afterAll, beforeAll, expect, test } from 'bun:test';
import { freshDatabase } from '../../test/db.ts';
import { findOrCreateUser } from '../../core/auth/users.ts';
import { createSession } from '../../core/auth/sessions.ts';
import { deleteExpiredRecords, UNUSED_CLIENT_DAYS } from './expiry.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

test('expired records go after a day of grace; live ones stay', async () => {
  const { sql } = db;
  const u = await findOrCreateUser(sql, 'expiry@example.com');
  await createSession(sql, u.id, 1);
  await createSession(sql, u.id, 1);
  await sql`update sessions set expires_at = now() - interval '2 days' where id_hash = (select id_hash from sessions order by created_at limit 1)`;
  await sql`insert into login_links (token_hash, email, expires_at) values ('a', 'x@example.com', now() - interval '3 days'), ('b', 'x@example.com', now() + interval '10 minutes'), ('c', 'x@example.com', now() - interval '1 hour')`;
  await sql`insert into idempotency_keys (user_id, operation, key, request_hash, locked_until, expires_at)
            values (${u.id}, 'op', 'old', 'h', now(), now() - interval '1 second'), (${u.id}, 'op', 'new', 'h', now(), now() + interval '1 day')`;
  const deleted = await deleteExpiredRecords(sql);
  expect(deleted).toMatchObject({ idempotency_keys: 1, login_links: 1, sessions: 1 });
  expect((await sql`select token_hash from login_links order by 1`).map((r) => r.token_hash)).toEqual(['b', 'c']);
  expect((await sql`select key from idempotency_keys`).map((r) => r.key)).toEqual(['new']);
  expect((await sql`select count(*)::int as n from sessions`)[0].n).toBe(1);
  expect(await deleteExpiredRecords(sql)).toMatchObject({ idempotency_keys: 0, login_links: 0, sessions: 0 });
});

test('dynamically registered clients nobody granted access to go after UNUSED_CLIENT_DAYS; used ones and metadata documents stay', async () => {
  const { sql } = db;
  const u = await findOrCreateUser(sql, 'clients@example.com');
  const old = `now() - interval '${UNUSED_CLIENT_DAYS + 1} days'`;
  await sql.unsafe(`insert into oauth_clients (client_id, kind, redirect_uris, created_at) values
    ('old-unused', 'registered', '{https://a.example/cb}', ${old}),
    ('old-used', 'registered', '{https://a.example/cb}', ${old}),
    ('new-unused', 'registered', '{https://a.example/cb}', now()),
    ('https://c.example/meta.json', 'metadata_document', '{https://c.example/cb}', ${old})`);
  await sql`insert into oauth_grants (user_id, client_id, scopes, resource) values (${u.id}, 'old-used', '{account:read}', 'https://x.example/mcp')`;
  expect((await deleteExpiredRecords(sql)).oauth_clients).toBe(1);
  expect((await sql`select client_id from oauth_clients order by 1`).map((r) => r.client_id)).toEqual([
    'https://c.example/meta.json',
    'new-unused',
    'old-used',
  ]);
});

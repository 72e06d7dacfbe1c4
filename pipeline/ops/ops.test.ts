import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { findApiKey } from '../../core/auth/api-keys.ts';
import { findUserByEmail } from '../../core/auth/users.ts';
import type { Sql } from '../../sql/db.ts';
import { enqueueMail } from '../../core/mail/outbox.ts';
import { freshDatabase } from '../../test/db.ts';
import { runOpsCommand } from '../../test/ops.ts';

let db: { sql: Sql; drop(): Promise<void> };
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

const ops = (...argv: string[]) => runOpsCommand(argv, { sql: db.sql });

describe('usage', () => {
  test('help prints every command on stdout', async () => {
    const r = await ops('help');
    expect(r.code).toBe(0);
    for (const c of ['user create', 'api-key create', 'api-key list', 'api-key revoke', 'outbox', 'moderation']) expect(r.stdout).toContain(c);
    expect(r.err).toEqual([]);
  });

  test('no command, an unknown command or an unknown option: exit 2 with a message on stderr', async () => {
    for (const argv of [
      [],
      ['frobnicate'],
      ['user'],
      ['user', 'delete'],
      ['user', 'create', '--email', 'a@example.com', '--colour', 'red'],
      ['api-key'],
      ['api-key', 'rotate'],
    ]) {
      const r = await ops(...argv);
      expect([argv, r.code]).toEqual([argv, 2]);
      expect(r.out).toEqual([]);
      expect(r.stderr).toStartWith('ops: ');
    }
  });
});

describe('user create', () => {
  test('makes the account once; a name given is set', async () => {
    const first = await ops('user', 'create', '--email', 'Olga@Example.com');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^user \d+ Olga@Example\.com \(created\)$/);
    const again = await ops('user', 'create', '--email', 'olga@example.com', '--name', 'Olga K');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"Olga K" (already there)');
    expect((await findUserByEmail(db.sql, 'olga@example.com'))?.name).toBe('Olga K');
  });

  test('a missing or malformed address is exit 2', async () => {
    expect((await ops('user', 'create')).stderr).toContain('--email is required');
    expect((await ops('user', 'create', '--email', 'not-an-address')).code).toBe(2);
    expect((await ops('user', 'create', '--email', 'a@example.com', '--name', 'x'.repeat(161))).code).toBe(2);
    expect(await findUserByEmail(db.sql, 'a@example.com')).toBeNull();
  });
});

describe('api-key', () => {
  test('create makes the user if missing and prints a working secret alone on the last line', async () => {
    const r = await ops('api-key', 'create', '--email', 'kim@example.com', '--scopes', 'account:read,listings:write', '--name', 'deploy bot');
    expect(r.code).toBe(0);
    expect(r.out.length).toBeGreaterThan(1);
    expect(r.out[0]).toContain('kim@example.com (created)');
    const secret = r.out.at(-1)!;
    expect(secret).toMatch(/^ldk_[A-Za-z0-9_-]{43}$/);
    expect(r.out.slice(0, -1).join('\n')).not.toContain(secret);
    const key = await findApiKey(db.sql, secret);
    expect(key).toMatchObject({ email: 'kim@example.com', scopes: ['account:read', 'listings:write'] });
  });

  test('an unknown scope is exit 2 naming it, and nothing is made', async () => {
    const r = await ops('api-key', 'create', '--email', 'lee@example.com', '--scopes', 'account:read,orders:delete');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"orders:delete"');
    expect(await findUserByEmail(db.sql, 'lee@example.com')).toBeNull();
    expect((await ops('api-key', 'create', '--email', 'lee@example.com')).stderr).toContain('--scopes is required');
    expect((await ops('api-key', 'create', '--scopes', 'account:read')).code).toBe(2);
  });

  test('list shows the keys of an account; revoke ends one', async () => {
    const made = await ops('api-key', 'create', '--email', 'max@example.com', '--scopes', 'orders:write');
    const secret = made.out.at(-1)!;
    const listed = await ops('api-key', 'list', '--email', 'MAX@example.com');
    expect(listed.code).toBe(0);
    expect(listed.out[0].split('\t')).toEqual(['id', 'name', 'prefix', 'scopes', 'created', 'last used', 'revoked']);
    const row = listed.out[1].split('\t');
    expect(row.slice(1, 4)).toEqual(['ops', `${secret.slice(0, 12)}…`, 'orders:write']);
    expect(row[6]).toBe('-');
    expect(listed.stdout).not.toContain(secret);

    const revoked = await ops('api-key', 'revoke', row[0]);
    expect(revoked).toMatchObject({ code: 0, out: [`revoked API key ${row[0]}`] });
    expect(await findApiKey(db.sql, secret)).toBeNull();
    expect((await ops('api-key', 'list', '--email', 'max@example.com')).out[1].split('\t')[6]).not.toBe('-');

    const twice = await ops('api-key', 'revoke', row[0]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`no live API key with id ${row[0]}`);
  });

  test('bad revoke and list arguments', async () => {
    expect((await ops('api-key', 'revoke')).code).toBe(2);
    expect((await ops('api-key', 'revoke', 'abc')).code).toBe(2);
    expect((await ops('api-key', 'revoke', '1', '2')).code).toBe(2);
    const nobody = await ops('api-key', 'list', '--email', 'nobody@example.com');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('no account for nobody@example.com');
  });
});

describe('outbox', () => {
  test('shows recent mail with its text body, newest first, filtered by recipient and limited', async () => {
    expect((await ops('outbox')).stdout).toBe('the outbox is empty');
    const link = 'http://localhost:3000/sign-in/verify?token=ldl_abc123';
    await enqueueMail(db.sql, { to: 'ann@example.com', subject: 'Your sign-in link', text: `Sign in:\n${link}\n\nIt works once.`, kind: 'login_link' });
    await enqueueMail(db.sql, { to: 'bob@example.com', subject: 'Welcome', text: 'Hello Bob', kind: 'welcome' });
    await db.sql`update mail_outbox set sent_at = now() where to_address = 'bob@example.com'`;

    const all = await ops('outbox');
    expect(all.code).toBe(0);
    expect(all.stdout.indexOf('Welcome')).toBeLessThan(all.stdout.indexOf('Your sign-in link'));
    expect(all.out).toContain(`    ${link}`);
    expect(all.stdout).toMatch(/#\d+ {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}to ann@example\.com {2}\[login_link\] {2}not sent/);
    expect(all.stdout).toMatch(/to bob@example\.com {2}\[welcome\] {2}sent \d{4}-/);

    const ann = await ops('outbox', '--to', 'ANN@example.com');
    expect(ann.stdout).toContain(link);
    expect(ann.stdout).not.toContain('Welcome');
    const one = await ops('outbox', '--limit', '1');
    expect(one.stdout).toContain('Welcome');
    expect(one.stdout).not.toContain('sign-in link');
    expect((await ops('outbox', '--to', 'carol@example.com')).stdout).toBe('no mail to carol@example.com');
  });

  test('a bad limit or address is exit 2', async () => {
    for (const argv of [['--limit', '0'], ['--limit', '501'], ['--limit', 'ten'], ['--to', 'nope'], ['--limit']]) {
      expect((await ops('outbox', ...argv)).code).toBe(2);
    }
  });
});

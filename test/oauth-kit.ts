// Test helpers for the OAuth tests: a signed-in browser (session cookie made in the database),
// the consent page driven with fetch, PKCE pairs, and an edge in a child process (for https
// client ID metadata documents whose certificate the child trusts via NODE_EXTRA_CA_CERTS).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from '../sql/db.ts';
import { createSession } from '../core/auth/sessions.ts';
import { findOrCreateUser } from '../core/auth/users.ts';
import { freshDatabase } from './db.ts';
import { eventually } from './eventually.ts';
import { freePort } from './ports.ts';
import { s256 } from '../api/oauth/pkce.ts';

/** A session for this address, as the sign-in link would make; returns the Cookie header value (http: cookie "session"). */
export async function signedInCookie(sql: Sql, email: string): Promise<string> {
  const user = await findOrCreateUser(sql, email);
  const { id } = await createSession(sql, user.id, 24);
  return `session=${id}`;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export interface ConsentPage {
  status: number;
  html: string;
  headers: Headers;
  csrf: string;
  csrfCookie: string;
  authorizationRequest: string;
}

/** GET of an authorize URL as a signed-in browser; extracts the consent form's hidden fields. */
export async function openConsent(authorizeUrl: string, cookie: string): Promise<ConsentPage> {
  const res = await fetch(authorizeUrl, { headers: { cookie }, redirect: 'manual' });
  const html = await res.text();
  const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
  const setCookie = res.headers.get('set-cookie') ?? '';
  const csrfCookie = /(?:^|,\s*)(csrf=[^;]*)/.exec(setCookie)?.[1] ?? '';
  const authorizationRequest = unescapeHtml(/name="authorization_request" value="([^"]*)"/.exec(html)?.[1] ?? '');
  return { status: res.status, html, headers: res.headers, csrf: unescapeHtml(csrf), csrfCookie, authorizationRequest };
}

/** Presses "Allow access" or "Deny" on the consent page; returns the response (a 303 to the app when all is well). */
export async function answerConsent(siteUrl: string, cookie: string, consent: ConsentPage, decision: 'allow' | 'deny'): Promise<Response> {
  return fetch(`${siteUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: `${cookie}; ${consent.csrfCookie}`, 'content-type': 'application/x-www-form-urlencoded', origin: new URL(siteUrl).origin },
    body: new URLSearchParams({ csrf: consent.csrf, authorization_request: consent.authorizationRequest, decision }).toString(),
  });
}

/** The whole browser leg: consent page, then the answer; returns the redirect to the app as a URL. */
export async function consentAndFollow(siteUrl: string, authorizeUrl: string, cookie: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const consent = await openConsent(authorizeUrl, cookie);
  if (consent.status !== 200) throw new Error(`consent page answered ${consent.status}: ${consent.html.slice(0, 500)}`);
  const answer = await answerConsent(siteUrl, cookie, consent, decision);
  const location = answer.headers.get('location');
  if (answer.status !== 303 || !location) throw new Error(`consent answer was ${answer.status}: ${(await answer.text()).slice(0, 500)}`);
  return new URL(location);
}

/** A throwaway self-signed certificate for 127.0.0.1 (openssl, as the SSRF fetcher's https tests use). */
export function selfSignedCertificate(): { cert: string; key: string; certPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'oauth-tls-'));
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  if (made.status !== 0) throw new Error('the https client metadata test needs openssl on PATH');
  const certPath = join(dir, 'cert.pem');
  return {
    cert: readFileSync(certPath, 'utf8'),
    key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    certPath,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface EdgeProcess {
  url: string;
  sql: Sql;
  stop(): Promise<void>;
}

/** The edge (`bun api/main.ts`) in a child process against a fresh database, with extra environment. */
export async function startEdgeProcess(env: Record<string, string>): Promise<EdgeProcess> {
  const db = await freshDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const root = join(import.meta.dirname, '..');
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [join(root, 'api/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ANONYMOUS_READS: '1000000',
      RATE_LIMIT_AUTHENTICATED_READS: '1000000',
      RATE_LIMIT_WRITES: '1000000',
      ...env,
    },
  });
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await db.drop();
  };
  const up = await eventually(
    async () => child.exitCode === null && (await fetch(`${url}/healthz`).catch(() => null))?.ok,
    (ok) => ok || child.exitCode !== null,
    { tries: 300, everyMs: 100 },
  );
  if (!up) {
    await stop();
    throw new Error(`edge did not start:\n${out}`);
  }
  return { url, sql: db.sql, stop };
}

import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import { PRODUCT_NAME } from '../sql/product.ts';
import { ensureSite } from '../sql/site.ts';
import { freshDatabase } from './db.ts';
import { buildOpenApi } from '../api/openapi/document.ts';
import { operations } from '../api/registry/index.ts';

// one human-facing product name everywhere, from one constant.
const root = join(import.meta.dirname, '..');
const files = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((n) => {
    const rel = join(dir, n);
    return statSync(join(root, rel)).isDirectory() ? files(rel) : /\.(ts|md|ya?ml)$/.test(n) ? [rel] : [];
  });

test('the site row, OpenAPI title, user agents and mail sender use PRODUCT_NAME', async () => {
  const db = await freshDatabase();
  try {
    const site = await ensureSite(db.sql, 'name-test', 'http://localhost');
    expect(site.name).toBe(PRODUCT_NAME);
  } finally {
    await db.drop();
  }
  const config = loadConfig({ SITE_URL: 'https://example.test' });
  expect(config.crawlerUserAgent).toBe(`${PRODUCT_NAME.replace(/ /g, '')}Bot/1.0 (+https://example.test/bot)`);
  expect(config.mail.from).toBe(`${PRODUCT_NAME} <no-reply@example.test>`);
  expect(buildOpenApi(operations, config.siteUrl).info.title).toBe(`${PRODUCT_NAME} API`);
  expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n')[0]).toBe(`# ${PRODUCT_NAME}`);
});

test('no other display name is left in the code, the deployment files or the README', () => {
  const others = [/Listing Directory/, /ListingDirectory/];
  const offenders = ['README.md', 'CONVENTIONS.md', ...['api', 'core', 'pipeline', 'sql', 'seeds', 'deploy'].flatMap(files)].filter((f) =>
    others.some((re) => re.test(readFileSync(join(root, f), 'utf8'))),
  );
  expect(offenders).toEqual([]);
});

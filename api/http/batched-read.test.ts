import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeListing } from '../../test/builders.ts';
import { freshDatabase } from '../../test/db.ts';
import { proxyQueries } from '../../core/query-proxy.ts';
import { connect, type Sql } from '../../sql/db.ts';
import { ensureSite } from '../../sql/site.ts';
import { profileParts } from '../../sql/queries/listing-profile.ts';
import { batchedRead } from './batched-read.ts';

// get_listing's misses started in one turn of the event loop share one statement.

let db: Awaited<ReturnType<typeof freshDatabase>>;
let reads: Sql;
let siteId: number;
let otherSiteId: number;

beforeAll(async () => {
  db = await freshDatabase();
  reads = connect(db.url, { max: 4 });
  siteId = (await ensureSite(db.sql, 'batch', 'http://batch.test')).id;
  [{ id: otherSiteId }] = await db.sql<{ id: number }[]>`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id::int`;
  await makeListing(db.sql, { siteId, slug: 'alpha', name: 'Alpha' });
  await makeListing(db.sql, { siteId, slug: 'beta', name: 'Beta' });
  await makeListing(db.sql, { siteId, slug: 'draft', name: 'Draft', status: 'draft' });
  await makeListing(db.sql, { siteId: otherSiteId, slug: 'elsewhere', name: 'Elsewhere' });
  // Their documents stored, as on a warm directory: a read is then one statement.
  await profileParts(db.sql, siteId, ['alpha', 'beta']);
}, 60_000);
afterAll(async () => {
  await reads?.end();
  await db?.drop();
});

/** The reads' pool with every statement it runs counted. */
function counted() {
  const counter = { statements: 0, batches: [] as string[][] };
  const sql = proxyQueries(reads, {
    query: (_q, run) => (onfulfilled, onrejected) => {
      counter.statements++;
      return run(onfulfilled, onrejected);
    },
  });
  const read = batchedRead((s: Sql, site: number, slugs: readonly string[]) => {
    counter.batches.push([...slugs]);
    return profileParts(s, site, slugs);
  });
  return { counter, read, ctx: { sql, readSql: sql } };
}

/** A profile's stored document, read. */
const doc = (parts: { body: string }) => JSON.parse(parts.body) as { name: string; tagline: string | null };

test('misses started in one turn share one statement, each answered in its own order', async () => {
  const { counter, read, ctx } = counted();
  const slugs = ['beta', 'nowhere', 'alpha', 'draft', 'elsewhere', 'alpha'];
  const found = await Promise.all(slugs.map((slug) => read(ctx, siteId, slug)));
  expect(counter.batches).toEqual([slugs]);
  expect(counter.statements).toBe(1);
  expect(found.map((p) => (p ? doc(p).name : null))).toEqual(['Beta', null, 'Alpha', null, null, 'Alpha']);
  // The same slug twice: the same document (text, which no caller can change).
  expect(found[2]!.body).toBe(found[5]!.body);

  // A later turn is a statement of its own; another site is a batch of its own.
  const [elsewhere, alpha] = await Promise.all([read(ctx, otherSiteId, 'elsewhere'), read(ctx, siteId, 'alpha')]);
  expect(doc(elsewhere!).name).toBe('Elsewhere');
  expect(doc(alpha!).name).toBe('Alpha');
  expect(counter.batches.slice(1).sort()).toEqual([['alpha'], ['elsewhere']]);
});

test('stale documents in a batch are each built and stored', async () => {
  const { read, ctx } = counted();
  await db.sql`update listing_documents d set body = null, version = version + 1 from listings l where l.id = d.listing_id and l.slug in ('alpha', 'beta')`;
  await db.sql`update listings set tagline = 'Now with batches' where slug = 'alpha'`;
  const [alpha, beta] = await Promise.all([read(ctx, siteId, 'alpha'), read(ctx, siteId, 'beta')]);
  expect(doc(alpha!).tagline).toBe('Now with batches');
  expect(doc(beta!).name).toBe('Beta');
  const stored = await db.sql<{ slug: string; tagline: string | null }[]>`
    select l.slug, d.body->>'tagline' as tagline from listing_documents d join listings l on l.id = d.listing_id
    where l.slug in ('alpha', 'beta') and d.body is not null order by l.slug`;
  expect([...stored]).toEqual([
    { slug: 'alpha', tagline: 'Now with batches' },
    { slug: 'beta', tagline: null },
  ]);
});

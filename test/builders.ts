// Fixture rows for tests, in the manner of graphile-worker's __tests__/helpers.ts: each builder
// inserts one row with sensible defaults, takes overrides for what a test cares about, and returns
// what the next builder needs. Columns the builder does not name go in `columns` as they are.
import type { Sql } from '../sql/db.ts';
import { createApiKey } from '../core/auth/api-keys.ts';
import type { Scope } from '../core/auth/scopes.ts';

let counter = 0;
const next = () => ++counter;

/** A user (users.id as text, like core/auth/users.ts). Default e-mail: user-N@example.test. */
export async function makeUser(sql: Sql, overrides: { email?: string; name?: string | null } = {}): Promise<{ id: string; email: string }> {
  const email = overrides.email ?? `user-${next()}@example.test`;
  const [u] = await sql<{ id: string; email: string }[]>`
    insert into users (email, name) values (${email}, ${overrides.name ?? null}) returning id::text, email`;
  return u;
}

/** count users at once, e-mail emailOf(1..count); ids in that order. */
export async function makeUsers(
  sql: Sql,
  count: number,
  emailOf: (i: number) => string = (i) => `u${i}@example.test`,
): Promise<{ id: string; email: string }[]> {
  const out: { id: string; email: string }[] = [];
  for (let i = 1; i <= count; i++) out.push(await makeUser(sql, { email: emailOf(i) }));
  return out;
}

/** An API key for the user; returns the secret (the only time it is seen). */
export async function makeApiKey(sql: Sql, user: { id: string | number }, scopes: Scope[], name = 'test'): Promise<string> {
  return (await createApiKey(sql, { userId: String(user.id), name, scopes })).secret;
}

/** A company. Defaults: domain company-N.test, name the domain, website https://domain. */
export async function makeCompany(sql: Sql, overrides: { name?: string; domain?: string; websiteUrl?: string } = {}): Promise<{ id: number }> {
  const domain = overrides.domain ?? `company-${next()}.test`;
  const [c] = await sql<{ id: number }[]>`
    insert into companies (name, domain, website_url)
    values (${overrides.name ?? domain}, ${domain}, ${overrides.websiteUrl ?? `https://${domain}`}) returning id::int`;
  return c;
}

export interface ListingOverrides {
  siteId: number;
  slug?: string;
  /** Default: a new company named `name` on `domain`. */
  companyId?: number;
  name?: string;
  /** Default: slug.test. */
  domain?: string;
  /** Default: https://domain. */
  url?: string;
  /** Default: live. */
  status?: string;
  /** Sets primary_category_id and adds the listing_categories row. */
  categoryId?: number | null;
  /** Any other listings columns, as they are. */
  columns?: Record<string, unknown>;
}

/** A listing (and its company unless companyId is given). */
export async function makeListing(sql: Sql, o: ListingOverrides): Promise<{ id: number; companyId: number; slug: string }> {
  const slug = o.slug ?? `listing-${next()}`;
  const domain = o.domain ?? `${slug}.test`;
  const url = o.url ?? `https://${domain}`;
  const name = o.name ?? slug;
  const companyId = o.companyId ?? (await makeCompany(sql, { name, domain, websiteUrl: url })).id;
  const row: Record<string, unknown> = {
    site_id: o.siteId,
    company_id: companyId,
    slug,
    name,
    url,
    domain,
    status: o.status ?? 'live',
    ...o.columns,
  };
  if (o.categoryId != null) row.primary_category_id = o.categoryId;
  const [l] = await sql<{ id: number }[]>`insert into listings ${sql(row as never)} returning id::int`;
  if (o.categoryId != null) await sql`insert into listing_categories (listing_id, category_id, is_primary) values (${l.id}, ${o.categoryId}, true)`;
  return { id: l.id, companyId, slug };
}

/** A category. Defaults: name the slug, top level, position 0. */
export async function makeCategory(
  sql: Sql,
  o: { slug?: string; name?: string; parentId?: number | null; position?: number; columns?: Record<string, unknown> } = {},
): Promise<{ id: number }> {
  const slug = o.slug ?? `category-${next()}`;
  const row: Record<string, unknown> = { slug, name: o.name ?? slug, parent_id: o.parentId ?? null, ...o.columns };
  if (o.position !== undefined) row.position = o.position;
  const [c] = await sql<{ id: number }[]>`insert into categories ${sql(row as never)} returning id::int`;
  return c;
}

/** A vote by the user on the listing, now unless at is given. */
export async function makeVote(sql: Sql, listingId: number | string, userId: number | string, at?: Date): Promise<void> {
  await sql`insert into votes (listing_id, user_id, created_at) values (${listingId}, ${userId}, coalesce(${at ?? null}::timestamptz, now()))`;
}

// list_my_listings, get_my_listing and update_my_listing through the real HTTP stack and MCP.
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { makeListing, ownersEnv } from './env.ts';
import { myListingsOperations } from '../../api/operations/my-listings.ts';
import { runOps } from '../../pipeline/ops/run.ts';

const { env, call, until } = ownersEnv({ socket: false });
const output = (name: string) => myListingsOperations.find((o) => o.name === name)!.output;

let live = 0;
let draft = 0;
let othersListing = 0;
let sister = 0;
beforeAll(async () => {
  const { sql, siteId } = env.app;
  live = await makeListing(sql, { siteId, userId: env.userIds.owner, url: 'https://lumen.example/', name: 'Lumen', status: 'live' });
  await sql`update listings set launched_at = now() - interval '1 day', launch_week = date_trunc('week', now() at time zone 'utc')::date - 7 where id = ${live}`;
  draft = await makeListing(sql, { siteId, userId: env.userIds.owner, name: 'Later' });
  othersListing = await makeListing(sql, { siteId, userId: env.userIds.other, name: 'Not yours', status: 'live' });
  // The same company on another site of the network, listed there by the same owner.
  const [s] = await sql`insert into sites (key, name, url) values ('sister', 'Sister Directory', 'https://sister.example') returning id`;
  await sql`insert into sites (key, name, url) values ('third', 'Third Directory', 'https://third.example')`;
  const [l] = await sql`select company_id from listings where id = ${live}`;
  const [o] = await sql<{ id: number }[]>`
    insert into listings (site_id, company_id, owner_user_id, slug, name, url, domain, status, headline, tagline)
    values (${s.id}, ${l.company_id}, ${env.userIds.owner}, 'lumen', 'Lumen', 'https://lumen.example/', 'lumen.example', 'live', 'Old sister headline', 'Sister tagline')
    returning id::int`;
  sister = o.id;
});

describe('list_my_listings and get_my_listing', () => {
  test("lists my listings in any status, newest first, and none of anyone else's", async () => {
    const res = await call('GET', '/me/listings', undefined, 'reader');
    expect(res.status).toBe(200);
    conforms(output('list_my_listings'), res.body);
    expect(res.body.items.map((i: any) => i.id)).toEqual([draft, live]);
    expect(res.body.items[0]).toMatchObject({ status: 'draft', plan: 'free', submitted: true, next_step: { action: 'choose_launch' } });
    expect(res.body.total).toBe(2);
    expect((await call('GET', '/me/listings?per_page=1&page=2')).body.items.map((i: any) => i.id)).toEqual([live]);
    expect((await call('GET', '/me/listings?per_page=101')).status).toBe(400);
  });

  test('the owner view: status, plan, launch week, sections, values and the next step', async () => {
    const res = await call('GET', `/me/listings/${live}`, undefined, 'reader');
    expect(res.status).toBe(200);
    conforms(output('get_my_listing'), res.body);
    expect(res.body).toMatchObject({ id: live, status: 'live', plan: 'free', unlocked_sections: [], next_step: { action: 'none' }, badge: null });
    expect(res.body.launch_week).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(res.body.fields)).toContain('seo_description');
  });

  test("another account's listing, an unknown id and a malformed id are the same 404", async () => {
    for (const path of [`/me/listings/${othersListing}`, '/me/listings/999999', '/me/listings/abc', '/me/listings/0']) {
      expect((await call('GET', path)).status, path).toBe(404);
      expect((await call('PATCH', path, { fields: { tagline: 'Mine now' } })).status, path).toBe(404);
    }
    const [row] = await env.app.sql`select tagline from listings where id = ${othersListing}`;
    expect(row.tagline).toBeNull();
  });
});

describe('update_my_listing', () => {
  test('edits publish at once and are kept as a version with before, after, who and credential', async () => {
    const before = await env.app.json('/listings/' + (await call('GET', `/me/listings/${live}`)).body.slug);
    expect(before.status).toBe(200);
    const res = await call('PATCH', `/me/listings/${live}`, {
      fields: {
        tagline: 'Notes that remember their sources',
        country: 'de',
        founded_year: 2019,
        features: ['Linked sources', ' '],
        contact_email: 'hello@lumen.example',
      },
      socials: { x: 'https://x.com/lumen', github: 'https://github.com/lumen' },
      faqs: [{ question: 'Is it free?', answer: 'For small teams.' }],
    });
    expect(res.status).toBe(200);
    conforms(output('update_my_listing'), res.body);
    expect(res.body.fields).toMatchObject({ tagline: 'Notes that remember their sources', country: 'DE', founded_year: 2019, features: ['Linked sources'] });
    expect(res.body.socials).toEqual({ github: 'https://github.com/lumen', x: 'https://x.com/lumen' });
    expect(res.body.version_id).toBeGreaterThan(0);

    // directory_changed() reaches the edge's cache by NOTIFY: a moment, well within the cache's lifetime.
    const pub = await until(
      () => env.app.json(`/listings/${res.body.slug}`),
      (r) => r.body.tagline !== before.body.tagline,
      'the edit in get_listing',
      10_000,
    );
    expect(pub.body.tagline).toBe('Notes that remember their sources');
    expect(pub.body.faqs).toEqual([{ question: 'Is it free?', answer: 'For small teams.' }]);

    const [v] = await env.app.sql`select user_id::text, credential, before, after from listing_versions where id = ${res.body.version_id}`;
    expect(v.user_id).toBe(env.userIds.owner);
    expect(v.credential).toMatch(/^key:\d+$/);
    expect(v.before).toMatchObject({ tagline: null, country: null, socials: {}, faqs: [] });
    expect(v.after).toMatchObject({ tagline: 'Notes that remember their sources', country: 'DE', socials: { x: 'https://x.com/lumen' } });

    // The same values again change nothing and record nothing.
    const again = await call('PATCH', `/me/listings/${live}`, { fields: { tagline: 'Notes that remember their sources' } });
    expect(again.body.version_id).toBeNull();
  });

  test('the site team sees a before/after copy in the moderation feed (ops CLI)', async () => {
    const lines: string[] = [];
    const code = await runOps(['moderation', '--limit', '5'], { sql: env.app.sql, out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(0);
    const text = lines.join('\n');
    expect(text).toContain('update_my_listing by owner@example.com with key:');
    expect(text).toContain('tagline: null -> "Notes that remember their sources"');
  });

  test("apply_to carries only the headline, summary and SEO fields sent to the company's listings on those sites", async () => {
    const res = await call('PATCH', `/me/listings/${live}`, { fields: { headline: 'Research notes, sourced', city: 'Berlin' }, apply_to: ['sister', 'third'] });
    expect(res.status).toBe(200);
    expect(res.body.applied_to).toEqual([{ site: 'sister', listing_id: sister, fields: ['headline'] }]);
    const [s] = await env.app.sql`select headline, summary, city, tagline from listings where id = ${sister}`;
    expect(s).toEqual({ headline: 'Research notes, sourced', summary: null, city: null, tagline: 'Sister tagline' });
    const versions = await env.app.sql`select site_id, after from listing_versions where listing_id = ${sister}`;
    expect(versions).toHaveLength(1);
    expect(versions[0].after).toEqual({ headline: 'Research notes, sourced' });

    const all = await call('PATCH', `/me/listings/${live}`, { fields: { seo_title: 'Lumen: sourced notes' }, apply_to: ['all'] });
    expect(all.body.applied_to).toEqual([{ site: 'sister', listing_id: sister, fields: ['seo_title'] }]);
  });

  test('every input error is a 400 naming the field, and nothing stored is lost', async () => {
    const bad: [unknown, string][] = [
      [{ fields: { colour: 'red' } }, 'fields.colour'],
      [{ name: 'x' }, 'name'],
      [{ fields: { tagline: 'x'.repeat(201) } }, 'fields.tagline'],
      [{ fields: { seo_description: 'x'.repeat(321) } }, 'fields.seo_description'],
      [{ fields: { founded_year: 1799 } }, 'fields.founded_year'],
      [{ fields: { country: 'DEU' } }, 'fields.country'],
      [{ fields: { demo_video_url: 'javascript:alert(1)' } }, 'fields.demo_video_url'],
      [{ fields: { demo_video_url: '/relative' } }, 'fields.demo_video_url'],
      [{ fields: { contact_email: 'not-an-email' } }, 'fields.contact_email'],
      [{ fields: { features: Array(21).fill('f') } }, 'fields.features'],
      [{ socials: { x: 'ftp://x.com/lumen' } }, 'socials.x'],
      [{ socials: { myspace: 'https://myspace.com/x' } }, 'socials.myspace'],
      [{ faqs: Array(11).fill({ question: 'q', answer: 'a' }) }, 'faqs'],
      [{ apply_to: ['nowhere'] }, 'apply_to[0]'],
      [{ apply_to: ['all', 'sister'] }, 'apply_to'],
      [{ apply_to: Array(61).fill('sister') }, 'apply_to'],
    ];
    for (const [body, field] of bad) {
      const res = await call('PATCH', `/me/listings/${live}`, { ...(body as object), ...(field === 'apply_to[0]' ? { fields: { tagline: 'Lost?' } } : {}) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.errors.map((e: any) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const { body } = await call('GET', `/me/listings/${live}`);
    expect(body.fields.tagline).toBe('Notes that remember their sources');
    expect(body.socials.x).toBe('https://x.com/lumen');
  });

  test('a read-only credential is 403; 20 concurrent retries of one Idempotency-Key make one edit', async () => {
    expect((await call('PATCH', `/me/listings/${live}`, { fields: { city: 'Hamburg' } }, 'reader')).status).toBe(403);
    const key = `edit-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('PATCH', `/me/listings/${live}`, { fields: { city: 'Munich' } }, 'owner', { 'idempotency-key': key })),
    );
    const statuses = results.map((r) => r.status);
    for (const s of statuses) expect([200, 409]).toContain(s);
    const ok = results.filter((r) => r.status === 200);
    expect(new Set(ok.map((r) => r.body.version_id)).size).toBe(1);
    const versions = await env.app.sql`select 1 from listing_versions where listing_id = ${live} and after->>'city' = 'Munich'`;
    expect(versions).toHaveLength(1);
  });

  test('works as an MCP tool', async () => {
    const client = new McpClient({ name: 'owners-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.app.url}/mcp`), {
        fetch: env.app.fetch,
        requestInit: { headers: { authorization: `Bearer ${env.keys.owner}` } },
      }),
    );
    try {
      const got: any = await client.callTool({ name: 'update_my_listing', arguments: { listing_id: draft, fields: { tagline: 'Coming soon' } } });
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent).toMatchObject({ id: draft, fields: { tagline: 'Coming soon' } });
      const bad: any = await client.callTool({ name: 'update_my_listing', arguments: { listing_id: draft, fields: { colour: 'red' } } });
      expect(bad.isError).toBe(true);
      const theirs: any = await client.callTool({ name: 'get_my_listing', arguments: { listing_id: othersListing } });
      expect(theirs.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

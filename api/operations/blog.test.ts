import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { JSONValue } from 'postgres';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql) => {
      const post = (
        slug: string,
        title: string,
        body: string,
        publishedAt: string,
        extra: { tags?: string[]; faqs?: JSONValue[]; author?: string; excerpt?: string } = {},
      ) =>
        sql`insert into blog_posts (slug, title, excerpt, body_md, author, tags, faqs, published_at)
            values (${slug}, ${title}, ${extra.excerpt ?? ''}, ${body}, ${extra.author ?? ''}, ${extra.tags ?? []},
                    ${sql.json(extra.faqs ?? [])}, ${publishedAt})`;
      await post('launch-on-monday', 'How to launch on Monday', '# Launch\n\nPick a **Monday** and tell your users.', '2025-03-01T09:30:00Z', {
        tags: ['launch', 'tips'],
        author: 'Sam Writer',
        excerpt: 'Why Mondays work.',
        faqs: [{ question: 'Why Monday?', answer: 'Weeks start on Monday.' }, 'junk', { question: 'No answer' }],
      });
      await post('postgres-tips', 'Ten Postgres tips for founders', 'Run vacuum and analyze regularly.', '2025-02-01T00:00:00Z', { tags: ['db'] });
      await post('seo-basics', 'SEO basics', 'Titles matter, even on launch day.', '2025-01-01T00:00:00Z');
      await sql`insert into blog_posts (slug, title, body_md, published_at)
                values ('future-news', 'Upcoming launch news', 'Not yet.', now() + interval '1 day')`;
    },
  });
}, 60_000); // a loaded machine can take a while to boot the test database
afterAll(() => app?.stop(), 60_000);

const slugs = (body: any) => body.items.map((p: any) => p.slug);

describe('list_blog_posts', () => {
  test('lists published posts newest first with their summary fields', async () => {
    const { status, body } = await app.json('/blog');
    expect(status).toBe(200);
    expect(slugs(body)).toEqual(['launch-on-monday', 'postgres-tips', 'seo-basics']);
    expect(body).toMatchObject({ page: 1, per_page: 20, total: 3, has_more: false });
    expect(body.items[0]).toEqual({
      slug: 'launch-on-monday',
      title: 'How to launch on Monday',
      excerpt: 'Why Mondays work.',
      author: 'Sam Writer',
      tags: ['launch', 'tips'],
      published_at: '2025-03-01T09:30:00Z',
      url: `${app.url}/blog/launch-on-monday`,
    });
  });

  test('q searches title and body with full text, best match first, never unpublished posts', async () => {
    expect(slugs((await app.json('/blog?q=vacuum')).body)).toEqual(['postgres-tips']);
    // the title match outranks a body mention; the future post also says "launch" but is not published
    expect(slugs((await app.json('/blog?q=launch')).body)).toEqual(['launch-on-monday', 'seo-basics']);
    expect(slugs((await app.json('/blog?q=%22launch%20day%22')).body)).toEqual(['seo-basics']);
    expect(slugs((await app.json('/blog?q=launch%20-monday')).body)).toEqual(['seo-basics']);
    expect((await app.json('/blog?q=zebra')).body).toMatchObject({ items: [], total: 0 });
    expect(slugs((await app.json('/blog?q=%20')).body)).toEqual(['launch-on-monday', 'postgres-tips', 'seo-basics']);
  });

  test('q tolerates typos in titles', async () => {
    expect(slugs((await app.json('/blog?q=postgress')).body)).toEqual(['postgres-tips']);
    expect(slugs((await app.json('/blog?q=lanch%20monday')).body)).toEqual(['launch-on-monday']);
    expect(slugs((await app.json('/blog?q=seo%20basicz')).body)).toEqual(['seo-basics']);
    // the fallback never lists unpublished posts
    expect(slugs((await app.json('/blog?q=upcomming%20news')).body)).toEqual([]);
  });

  test('q is at most 200 characters', async () => {
    expect((await app.json(`/blog?q=${'a'.repeat(200)}`)).status).toBe(200);
    const res = await app.json(`/blog?q=${'a'.repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'q', in: 'query' });
  });

  test('pages and rejects paging out of bounds', async () => {
    const p2 = await app.json('/blog?per_page=2&page=2');
    expect(slugs(p2.body)).toEqual(['seo-basics']);
    expect(p2.body).toMatchObject({ page: 2, per_page: 2, total: 3, has_more: false });
    expect((await app.json('/blog?per_page=2')).body.has_more).toBe(true);
    expect((await app.json('/blog?page=1000&per_page=100')).body).toMatchObject({ items: [], total: 3 });
    for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101']) {
      const res = await app.json(`/blog?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe(q.split('=')[0]);
    }
    expect((await app.json('/blog?tag=launch')).status).toBe(400);
  });
});

describe('get_blog_post', () => {
  test('returns the full Markdown body, well-formed FAQs, tags, author and publication time', async () => {
    const { status, body } = await app.json('/blog/launch-on-monday');
    expect(status).toBe(200);
    expect(body).toEqual({
      slug: 'launch-on-monday',
      title: 'How to launch on Monday',
      excerpt: 'Why Mondays work.',
      author: 'Sam Writer',
      tags: ['launch', 'tips'],
      published_at: '2025-03-01T09:30:00Z',
      url: `${app.url}/blog/launch-on-monday`,
      body_markdown: '# Launch\n\nPick a **Monday** and tell your users.',
      faqs: [{ question: 'Why Monday?', answer: 'Weeks start on Monday.' }],
    });
    expect((await app.json('/blog/seo-basics')).body.faqs).toEqual([]);
  });

  test('404 for unknown, malformed and not yet published posts', async () => {
    for (const slug of ['nope', 'future-news', 'Bad_Slug']) {
      const res = await app.json(`/blog/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});

import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { Faq, ListOf, Paging, Slug } from '../registry/schemas.ts';
import { notFound } from '../../core/errors/index.ts';
import { blogPostBySlug, searchBlogPosts } from '../../sql/queries/blog.ts';
import { pageInfo } from '../../sql/queries/summaries.ts';
import { blogExamples } from './blog-examples.ts';

const PostFields = {
  slug: Type.String(),
  title: Type.String(),
  excerpt: Type.String(),
  author: Type.String({ description: "The author's name; empty when not credited." }),
  tags: Type.Array(Type.String()),
  published_at: Type.String({ format: 'date-time' }),
  url: Type.String({ description: "The post's page on this site." }),
};
const BlogItem = Type.Object(PostFields);
const BlogPost = Type.Object({
  ...PostFields,
  body_markdown: Type.String({ description: 'The full post in Markdown.' }),
  faqs: Type.Array(Faq),
});

export const blogOperations: Operation[] = [
  defineOperation({
    name: 'list_blog_posts',
    examples: blogExamples.list_blog_posts,
    method: 'GET',
    path: '/blog',
    tag: 'Blog',
    scope: null,
    summary: 'List blog posts',
    description: "Lists published blog posts, newest first, or best match first when q is given. Call get_blog_post with a post's slug for the full text.",
    query: Type.Object(
      {
        q: Type.Optional(
          Type.String({
            maxLength: 200,
            description: 'Words to look for in the title, excerpt and body, e.g. launch checklist; quotes, OR and -word work as in web search.',
          }),
        ),
        ...Paging,
      },
      { additionalProperties: false },
    ),
    output: ListOf(BlogItem),
    notes: [
      'Only published posts are listed (published_at in the past); scheduled posts appear once their time comes.',
      'Without q (or with an empty q), posts are ordered newest first. With q, posts whose title, excerpt or body match q as a web-search query (English stemming; "quoted phrases", OR and -word work) are listed by relevance, then newest first. When no post matches that way, posts whose title is close to q (trigram similarity) are listed instead, most similar first, so a misspelt query still finds them.',
      'Items carry the excerpt, not the body; get_blog_post returns the full Markdown.',
    ].join('\n\n'),
    handler: async ({ q, page, per_page }, { sql, config }) => {
      const { total, items } = await searchBlogPosts(sql, config.siteUrl, { q: q?.trim() || null, page, perPage: per_page });
      return { items, ...pageInfo(page, per_page, total) };
    },
  }),

  defineOperation({
    name: 'get_blog_post',
    examples: blogExamples.get_blog_post,
    method: 'GET',
    path: '/blog/{slug}',
    tag: 'Blog',
    scope: null,
    summary: 'Get a blog post',
    description: 'Returns one published blog post by slug: the Markdown body, FAQs, tags, author and publication time. Take the slug from list_blog_posts.',
    params: Type.Object({ slug: Slug('The post slug from list_blog_posts, e.g. launch-week-checklist.') }, { additionalProperties: false }),
    notFoundParams: ['slug'],
    output: BlogPost,
    notes: 'Unknown posts, and posts whose publication time has not come yet, answer 404.',
    handler: async ({ slug }, { sql, config }) => {
      const post = await blogPostBySlug(sql, config.siteUrl, slug);
      if (!post) throw notFound(`No blog post with slug "${slug}".`);
      return post;
    },
  }),
];

// Examples of the blog operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const blogExamples = {
  list_blog_posts: {
    input: { per_page: 2 },
    output: {
      items: [
        {
          slug: 'launch-week-checklist',
          title: 'The launch week checklist we wish we had',
          excerpt: 'Everything to prepare before your product goes live on Monday, from the tagline to the first reply.',
          author: 'Maya Lindqvist',
          tags: ['launching', 'checklist'],
          published_at: '2026-11-23T19:57:44Z',
          url: 'https://launchpad.example/blog/launch-week-checklist',
        },
        {
          slug: 'what-domain-rating-means',
          title: 'What Domain Rating means for a young product',
          excerpt: 'Domain Rating measures the strength of your backlinks from 0 to 100. Here is why the trend matters more than the number.',
          author: 'Kenji Tanaka',
          tags: ['seo', 'rankings'],
          published_at: '2026-11-18T19:57:44Z',
          url: 'https://launchpad.example/blog/what-domain-rating-means',
        },
      ],
      page: 1,
      per_page: 2,
      total: 12,
      has_more: true,
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: per_page expected integer to be less or equal to 100',
      errors: [{ field: 'per_page', in: 'query', message: 'expected integer to be less or equal to 100' }],
    },
  },
  get_blog_post: {
    input: { slug: 'launch-week-checklist' },
    output: {
      slug: 'launch-week-checklist',
      title: 'The launch week checklist we wish we had',
      excerpt: 'Everything to prepare before your product goes live on Monday, from the tagline to the first reply.',
      author: 'Maya Lindqvist',
      tags: ['launching', 'checklist'],
      published_at: '2026-11-23T19:57:44Z',
      url: 'https://launchpad.example/blog/launch-week-checklist',
      body_markdown:
        '# The launch week checklist we wish we had\n\nLaunch week is short. Seven days, one ranking, and a lot of people seeing your product for the first time.\nHere is what to get right **before** Monday.\n\n## The week before\n\n- Write a tagline that says what the …',
      faqs: [
        {
          question: 'When does a launch week start?',
          answer: 'Launch weeks run Monday to Sunday, UTC. Votes cast in that window count for the weekly ranking.',
        },
        { question: 'Can I change my listing during launch week?', answer: 'Yes. Edits publish at once and never reset your votes.' },
      ],
    },
    error: { status: 404, code: 'not_found', detail: 'No blog post with slug "launch-checklist".' },
  },
} satisfies Record<string, OperationExamples>;

// Examples of the categories operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const categoriesExamples = {
  list_categories: {
    input: { include_empty: false },
    output: {
      items: [
        {
          slug: 'developer-tools',
          name: 'Developer Tools',
          description:
            'Tools that help software teams build, ship and run their products: APIs, databases, build pipelines and observability. Most offer a generous free tier for side projects and usage-based plans as you grow.',
          count: 38,
          direct_count: 0,
          subcategories: [
            {
              slug: 'apis',
              name: 'APIs & Integrations',
              description: 'API gateways, mocking tools, SDK generators and integration platforms that connect your product to everything else.',
              count: 13,
              direct_count: 13,
            },
            {
              slug: 'databases',
              name: 'Databases',
              description:
                'Managed and self-hosted databases, from serverless Postgres to embedded key-value stores, plus tools for schema changes and backups.',
              count: 5,
              direct_count: 5,
            },
          ],
        },
        {
          slug: 'ai-ml',
          name: 'AI & Machine Learning',
          description:
            'Products built on machine learning: writing assistants, autonomous agents, vision and speech tools, and the infrastructure to train and serve models.',
          count: 39,
          direct_count: 0,
          subcategories: [
            {
              slug: 'ai-writing',
              name: 'AI Writing',
              description: 'Assistants that draft, edit and translate text, from blog posts and product copy to support replies.',
              count: 11,
              direct_count: 11,
            },
            {
              slug: 'ai-agents',
              name: 'AI Agents',
              description: 'Agents that take actions for you: browsing, filling forms, triaging inboxes and running multi-step workflows with tools.',
              count: 8,
              direct_count: 8,
            },
          ],
        },
      ],
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: include_empty expected boolean',
      errors: [{ field: 'include_empty', in: 'query', message: 'expected boolean' }],
    },
  },
  get_category: {
    input: { slug: 'developer-tools', per_page: 2 },
    output: {
      slug: 'developer-tools',
      name: 'Developer Tools',
      description:
        'Tools that help software teams build, ship and run their products: APIs, databases, build pipelines and observability. Most offer a generous free tier for side projects and usage-based plans as you grow.',
      count: 38,
      direct_count: 0,
      faqs: [
        {
          question: 'Are these tools only for large teams?',
          answer: 'No. Most developer tools listed here have a free tier that covers side projects and small teams, and charge by usage once you grow.',
        },
        {
          question: 'How are products in Developer Tools ranked?',
          answer: 'By community votes from people on the site. Paid placement appears only on the billboard and is always marked as paid.',
        },
      ],
      attributes: [
        { key: 'open_source', label: 'Open source' },
        { key: 'free_tier', label: 'Free tier' },
      ],
      parent: null,
      subcategories: [
        { slug: 'apis', name: 'APIs & Integrations', count: 13 },
        { slug: 'databases', name: 'Databases', count: 5 },
      ],
      listings: {
        items: [
          {
            id: 162,
            slug: 'inkwellstack',
            name: 'Inkwellstack',
            url: 'https://inkwellstack.io.example',
            profile_url: 'https://launchpad.example/listings/inkwellstack',
            tagline: 'Serverless Postgres that helps you branch a database for every pull request',
            logo_url: 'https://inkwellstack.io.example/logo.png',
            status: 'live',
            plan: 'free',
            category: { slug: 'databases', name: 'Databases' },
            pricing_model: 'open-source',
            country: 'DE',
            launch_week: '2026-11-16',
            launched_at: '2026-11-16T00:08:42Z',
            votes: 164,
            follows: 46,
            views: 3943,
          },
          {
            id: 195,
            slug: 'irislane',
            name: 'Irislane',
            url: 'https://irislane.dev.example',
            profile_url: 'https://launchpad.example/listings/irislane',
            tagline: 'Build cache that helps you cut build times in half',
            logo_url: 'https://irislane.dev.example/logo.png',
            status: 'live',
            plan: 'free',
            category: { slug: 'ci-cd', name: 'CI/CD' },
            pricing_model: 'freemium',
            country: 'DE',
            launch_week: '2026-11-16',
            launched_at: '2026-11-16T00:15:31Z',
            votes: 149,
            follows: 15,
            views: 3653,
          },
        ],
        page: 1,
        per_page: 2,
        total: 38,
        has_more: true,
      },
    },
    error: { status: 404, code: 'not_found', detail: 'No category with slug "dev-tool".' },
  },
} satisfies Record<string, OperationExamples>;

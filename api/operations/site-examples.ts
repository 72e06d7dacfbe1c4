// Examples of the site operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const siteExamples = {
  get_site_info: {
    output: {
      name: 'Launchpad Directory',
      purpose: 'A public directory of software products with a weekly launch calendar, leaderboards and awards.',
      site_url: 'https://launchpad.example',
      api_url: 'https://launchpad.example/api/v1',
      urls: {
        home: 'https://launchpad.example/',
        docs: 'https://launchpad.example/docs',
        openapi: 'https://launchpad.example/api/v1/openapi.json',
        mcp: 'https://launchpad.example/mcp',
        launches: 'https://launchpad.example/api/v1/launches',
        leaderboards: 'https://launchpad.example/api/v1/leaderboards/community-weekly',
        categories: 'https://launchpad.example/api/v1/categories',
        blog: 'https://launchpad.example/api/v1/blog',
      },
      counts: { live_listings: 275, upcoming_listings: 32, categories: 40, founders: 239 },
      mcp: { url: 'https://launchpad.example/mcp', transport: 'streamable-http', protocol_versions: ['2026-07-28', '2025-11-25'] },
      api_version: '1.0.0',
    },
    error: { status: 429, code: 'rate_limited', detail: 'Rate limit reached; retry in 20 s.' },
  },
} satisfies Record<string, OperationExamples>;

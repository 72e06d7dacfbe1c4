import { Type } from '@sinclair/typebox';
import { defineOperation, type Operation } from '../registry/operation.ts';
import { siteInfo } from '../../sql/queries/site.ts';
import { siteExamples } from './site-examples.ts';

const SiteInfo = Type.Object({
  name: Type.String(),
  purpose: Type.String(),
  site_url: Type.String(),
  api_url: Type.String(),
  urls: Type.Object({
    home: Type.String(),
    docs: Type.String(),
    openapi: Type.String(),
    mcp: Type.String(),
    launches: Type.String(),
    leaderboards: Type.String(),
    categories: Type.String(),
    blog: Type.String(),
  }),
  counts: Type.Object({ live_listings: Type.Integer(), categories: Type.Integer(), upcoming_listings: Type.Integer(), founders: Type.Integer() }),
  mcp: Type.Object({ url: Type.String(), transport: Type.Literal('streamable-http'), protocol_versions: Type.Array(Type.String()) }),
  api_version: Type.String(),
});

export const siteOperations: Operation[] = [
  defineOperation({
    name: 'get_site_info',
    examples: siteExamples.get_site_info,
    method: 'GET',
    path: '/site',
    tag: 'Site',
    scope: null,
    summary: 'Describe this directory site',
    description:
      'Describes this directory: its name, purpose, public URLs (docs, OpenAPI, MCP) and counts of live listings and categories. Call it first when you need to tell a person what the site is.',
    output: SiteInfo,
    handler: async (_input, { sql, site, config }) => {
      const counts = await siteInfo(sql, site.id);
      const u = config.siteUrl;
      return {
        name: site.name,
        purpose: site.purpose,
        site_url: u,
        api_url: `${u}/api/v1`,
        urls: {
          home: `${u}/`,
          docs: `${u}/docs`,
          openapi: `${u}/api/v1/openapi.json`,
          mcp: `${u}/mcp`,
          launches: `${u}/api/v1/launches`,
          leaderboards: `${u}/api/v1/leaderboards/community-weekly`,
          categories: `${u}/api/v1/categories`,
          blog: `${u}/api/v1/blog`,
        },
        counts,
        mcp: { url: `${u}/mcp`, transport: 'streamable-http' as const, protocol_versions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] },
        api_version: '1.0.0',
      };
    },
  }),
];

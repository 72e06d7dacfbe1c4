import { expect, test } from 'bun:test';
import { loadConfig } from '../../core/config.ts';
import { ensureSite } from '../../sql/site.ts';
import { freshDatabase } from '../../test/db.ts';
import { makeListing } from '../../test/builders.ts';
import { startEdge } from '../server.ts';

// Reads of a listing (get_listing over REST and MCP) and badge impressions are counted in memory and
// written every few seconds; a deploy stops the edge between two writes, and what was counted since
// the last one must reach the database then, not be dropped with the process.
test('a stopping edge writes the reads and badge impressions it counted since its last write', async () => {
  const db = await freshDatabase();
  try {
    const config = loadConfig({ SITE_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' });
    const site = await ensureSite(db.sql, config.siteKey, config.siteUrl);
    const listing = await makeListing(db.sql, { siteId: site.id, name: 'Counted' });
    await db.sql`select refresh_directory_views()`;
    const edge = await startEdge(config, db.url, { listen: false });
    const base = config.siteUrl;
    expect((await edge.handle(new Request(`${base}/api/v1/listings/${listing.slug}`))).status).toBe(200);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_listing', arguments: { slug: listing.slug } } };
    const mcp = await edge.handle(
      new Request(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify(call),
      }),
    );
    expect(mcp.status).toBe(200);
    await mcp.text();
    const badge = await edge.handle(new Request(`${base}/badges/${listing.slug}/listed.svg`, { headers: { referer: 'https://maker.example/' } }));
    expect(badge.status).toBe(200);
    await edge.stop();

    const reads = await db.sql`select surface, reads from listing_reads where listing_id = ${listing.id} order by surface`;
    expect(reads.map((r) => [r.surface, r.reads])).toEqual([
      ['api', 1],
      ['mcp', 1],
    ]);
    const shown = await db.sql`select host, impressions from listing_badge_impressions where listing_id = ${listing.id}`;
    expect(shown.map((r) => [r.host, r.impressions])).toEqual([['maker.example', 1]]);
  } finally {
    await db.drop();
  }
}, 60_000);

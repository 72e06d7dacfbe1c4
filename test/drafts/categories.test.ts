// A draft's categories over REST and MCP: a slug or a name goes in (any case), the answer gives
// the names (the field's value) with each one's slug beside it, on every draft answer and on the
// listing submit_draft makes; an unknown one is a 400 naming the item and offering valid slugs.
import { beforeAll, describe, expect, test } from 'bun:test';
import { conforms } from '../conforms.ts';
import { callMcpTool } from '../mcp-call.ts';
import { draftsEnv, opOutput, settled } from './env.ts';

const { env, call, patch, until } = draftsEnv();

let draftId = '';
beforeAll(async () => {
  draftId = (await call('POST', '/drafts', { url: env.site.url })).body.id;
  await until(draftId, settled, 'ready');
}, 60_000);

const mcp = (name: string, args: Record<string, unknown>) => callMcpTool(env.app.url, env.keys.owner, name, args);

describe('draft categories take a slug or a name and answer both', () => {
  test('REST: a slug and a name in any case go in; the names and their slugs come out', async () => {
    const res = await patch(draftId, { fields: { categories: ['NOTE-TAKING', 'research', 'Note taking'] } });
    expect(res.status).toBe(200);
    conforms(opOutput('update_draft'), res.body);
    expect(res.body.fields.categories).toMatchObject({ value: ['Note Taking', 'Research'], slugs: ['note-taking', 'research'] });
    const got = await call('GET', `/drafts/${draftId}`);
    conforms(opOutput('get_draft'), got.body);
    expect(got.body.fields.categories).toMatchObject({ value: ['Note Taking', 'Research'], slugs: ['note-taking', 'research'] });
  });

  test('MCP: the same, through update_draft and get_draft as tools', async () => {
    const set = await mcp('update_draft', { id: draftId, fields: { categories: ['developer-tools', 'PRODUCTIVITY'] } });
    expect(set.isError).toBe(false);
    expect(set.body.fields.categories).toMatchObject({ value: ['Developer Tools', 'Productivity'], slugs: ['developer-tools', 'productivity'] });
    const got = await mcp('get_draft', { id: draftId });
    expect(got.body.fields.categories).toMatchObject({ value: ['Developer Tools', 'Productivity'], slugs: ['developer-tools', 'productivity'] });
  });

  test('an unknown category is a 400 naming the item and offering the closest valid slugs, on both surfaces', async () => {
    const rest = await patch(draftId, { fields: { categories: ['productivity', 'Note Takin'] } });
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('unknown_category');
    const error = rest.body.errors.find((e: any) => e.field === 'fields.categories[1]');
    expect(error.message).toContain('"Note Takin"');
    // The slug nearest to what was typed comes first.
    expect(error.message).toMatch(/valid slugs include note-taking\b/);
    const tool = await mcp('update_draft', { id: draftId, fields: { categories: ['Gardening'] } });
    expect(tool.isError).toBe(true);
    expect(tool.body.code).toBe('unknown_category');
    expect(tool.body.errors[0].field).toBe('fields.categories[0]');
    expect(tool.body.errors[0].message).toMatch(/valid slugs include [a-z-]+(, [a-z-]+)*/);
    // Nothing changed.
    expect((await call('GET', `/drafts/${draftId}`)).body.fields.categories.slugs).toEqual(['developer-tools', 'productivity']);
  });

  test('submit_draft and get_my_listing give the listing categories as names and as slugs', async () => {
    await patch(draftId, { fields: { categories: ['research'] } });
    const submitted = await mcp('submit_draft', { id: draftId });
    expect(submitted.isError).toBe(false);
    conforms(opOutput('submit_draft'), submitted.body);
    expect(submitted.body).toMatchObject({ categories: ['Research'], category_slugs: ['research'] });
    const mine = await call('GET', `/me/listings/${submitted.body.listing_id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ categories: ['Research'], category_slugs: ['research'] });
  });
});

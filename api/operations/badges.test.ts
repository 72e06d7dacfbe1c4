import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// A site name with every character that needs escaping in XML and HTML.
const SITE = `Tools & "Things" <Hub>`;
const W1 = '2025-03-03';
const W2 = '2025-01-06';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      await sql`update sites set name = ${SITE} where id = ${siteId}`;
      const [other] = await sql`insert into sites (key, name, url) values ('other', 'Other', 'https://other.test') returning id`;
      const [c] = await sql`insert into companies (name, domain, website_url) values ('Acme', 'acme.test', 'https://acme.test') returning id`;
      const users = await sql`insert into users (email) select 'u' || g || '@example.test' from generate_series(1, 6) g returning id`;
      const owner = users[0].id;
      const add = async (slug: string, status: string, plan: string, ownerId: unknown, site = siteId) => {
        const [l] = await sql`insert into listings (site_id, company_id, owner_user_id, slug, name, url, domain, status, plan, launch_week, launched_at)
          values (${site}, ${c.id}, ${ownerId as never}, ${slug}, ${'Acme ' + slug}, 'https://acme.test', 'acme.test', ${status}, ${plan},
                  ${status === 'live' ? W2 : null}, ${status === 'live' ? new Date('2025-01-06T10:00:00Z') : null}) returning id`;
        // Owned here means claimed: the verified badge follows the owner's verified proof of control.
        if (ownerId) {
          const [claim] = await sql`insert into claims (listing_id, user_id, method, token, status, verified_at, expires_at)
                    values (${l.id}, ${ownerId as never}, 'dns', ${`verified-claim-token-${slug}`}, 'verified', now(), now()) returning id`;
          await sql`insert into company_owners (company_id, user_id, claim_id) values (${c.id}, ${ownerId as never}, ${claim.id}) on conflict do nothing`;
        }
        return l.id;
      };
      const alpha = await add('alpha', 'live', 'paid', owner);
      await add('waiting', 'awaiting_badge', 'free', null);
      await add('sched', 'scheduled', 'paid', owner);
      const plain = await add('plain', 'live', 'free', null);
      await add('hidden', 'draft', 'paid', owner);
      await add('foreign', 'live', 'paid', owner, other.id);
      await sql`insert into awards (site_id, listing_id, week, rank, votes) values
        (${siteId}, ${alpha}, ${W2}, 3, 4), (${siteId}, ${alpha}, ${W1}, 1, 9)`;
      // Five genuine 5-star reviews make alpha top rated; plain's four are not enough.
      for (const u of users.slice(1)) await sql`insert into reviews (listing_id, user_id, rating) values (${alpha}, ${u.id}, 5)`;
      for (const u of users.slice(1, 5)) await sql`insert into reviews (listing_id, user_id, rating) values (${plain}, ${u.id}, 5)`;
    },
  });
});
afterAll(() => app.stop());

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const attr = (html: string, tag: string, name: string) => {
  const m = html.match(new RegExp(`<${tag}\\b[^>]*\\s${name}="([^"]*)"`));
  return m ? unescapeHtml(m[1]) : null;
};
const kindsOf = (body: any) => body.items.map((b: any) => b.kind);
type XmlNode = { name: string; attributes: Record<string, string>; children: unknown[] };
const svgRoot = (text: string) => Bun.XML.parse(text, { compact: false }) as unknown as XmlNode;
const textOf = (n: XmlNode): string =>
  n.children.map((c) => (typeof c === 'string' ? c : c && typeof c === 'object' && 'name' in c ? textOf(c as XmlNode) : '')).join('');

describe('get_badges', () => {
  test('defaults to standard, auto, m and lists what the listing earned, in order', async () => {
    const { status, body } = await app.json('/listings/alpha/badges');
    expect(status).toBe(200);
    expect(body).toMatchObject({ shape: 'standard', mode: 'auto', size: 'm' });
    expect(body.listing).toEqual({ slug: 'alpha', name: 'Acme alpha', status: 'live', profile_url: `${app.url}/listings/alpha` });
    expect(kindsOf(body)).toEqual(['listed', 'launched', 'featured', 'verified', 'top-rated', `award-${W1}`, `award-${W2}`]);
    const [listed] = body.items;
    expect(listed.label).toBe(`Listed on ${SITE}`);
    expect(listed.alt).toBe(`Acme alpha is listed on ${SITE}`);
    expect(listed).toMatchObject({ rank: null, week: null, link_url: `${app.url}/listings/alpha`, width: 250, height: 54 });
    expect(listed.svg_url).toBe(`${app.url}/badges/alpha/listed.svg?shape=standard&mode=light&size=m`);
    expect(listed.light_svg_url).toBe(listed.svg_url);
    expect(listed.dark_svg_url).toBe(`${app.url}/badges/alpha/listed.svg?shape=standard&mode=dark&size=m`);
    const award = body.items.find((b: any) => b.kind === `award-${W1}`);
    expect(award).toMatchObject({ label: 'Launch of the Week #1', rank: 1, week: W1 });
    expect(award.alt).toContain(W1);
    expect(body.items.find((b: any) => b.kind === `award-${W2}`)).toMatchObject({ label: 'Launch of the Week #3', rank: 3, week: W2 });
  });

  test('mode auto embeds a <picture> switching to the dark image, linked to the profile, with escaped attributes', async () => {
    const { body } = await app.json('/listings/alpha/badges');
    for (const b of body.items) {
      expect(b.html).toStartWith(`<a href="${app.url}/listings/alpha" target="_blank" rel="noopener"><picture>`);
      expect(b.html).toContain('<source media="(prefers-color-scheme: dark)" srcset="');
      expect(attr(b.html, 'source', 'srcset')).toBe(b.dark_svg_url);
      expect(attr(b.html, 'img', 'src')).toBe(b.light_svg_url);
      expect(attr(b.html, 'img', 'alt')).toBe(b.alt);
      expect(attr(b.html, 'img', 'width')).toBe(String(b.width));
      expect(b.html).not.toContain('<Hub>'); // the site name is escaped inside alt
      expect(b.html).toContain('&lt;Hub&gt;');
      expect(b.html).toContain('&amp;mode=dark&amp;'); // & in URLs is escaped too
      expect(b.markdown).toBe(`[![${b.alt}](${b.svg_url})](${b.link_url})`);
    }
  });

  test('mode light or dark embeds a plain linked <img> of that mode', async () => {
    for (const mode of ['light', 'dark']) {
      const { body } = await app.json(`/listings/alpha/badges?mode=${mode}`);
      for (const b of body.items) {
        expect(b.light_svg_url).toBeNull();
        expect(b.dark_svg_url).toBeNull();
        expect(b.svg_url).toContain(`mode=${mode}`);
        expect(b.html).not.toContain('<picture>');
        expect(b.html).toStartWith(`<a href="${app.url}/listings/alpha" target="_blank" rel="noopener"><img `);
        expect(attr(b.html, 'img', 'src')).toBe(b.svg_url);
      }
    }
  });

  test('every shape, mode and size is accepted, carried in the URLs, and every URL serves that SVG', async () => {
    const seen = new Map<string, string>();
    for (const shape of ['standard', 'outline', 'pill', 'banner', 'square'])
      for (const mode of ['light', 'dark', 'auto'])
        for (const size of ['s', 'm', 'l']) {
          const { status, body } = await app.json(`/listings/alpha/badges?shape=${shape}&mode=${mode}&size=${size}`);
          expect(status).toBe(200);
          expect(body).toMatchObject({ shape, mode, size });
          expect(body.items.length).toBe(7);
          for (const b of body.items) {
            const urls = [b.svg_url, b.light_svg_url, b.dark_svg_url].filter(Boolean);
            expect(urls.length).toBe(mode === 'auto' ? 3 : 1);
            for (const url of urls) {
              expect(url).toStartWith(`${app.url}/badges/alpha/${b.kind}.svg?`);
              expect(url).toContain(`shape=${shape}`);
              expect(url).toContain(`size=${size}`);
              if (seen.has(url)) continue;
              const res = await app.get(url);
              expect(res.status).toBe(200);
              expect(res.headers.get('content-type')).toStartWith('image/svg+xml');
              const text = await res.text();
              const root = svgRoot(text); // throws unless well-formed
              expect(root.name).toBe('svg');
              expect(root.attributes.width).toBe(String(b.width));
              expect(root.attributes.height).toBe(String(b.height));
              seen.set(url, text);
            }
            if (mode === 'auto') expect(seen.get(b.dark_svg_url)).not.toBe(seen.get(b.light_svg_url));
          }
        }
    // Sizes really differ: s < m < l for the same shape.
    const widths = ['s', 'm', 'l'].map((z) =>
      Number(svgRoot(seen.get(`${app.url}/badges/alpha/listed.svg?shape=pill&mode=light&size=${z}`)!).attributes.width),
    );
    expect(widths[0]).toBeLessThan(widths[1]);
    expect(widths[1]).toBeLessThan(widths[2]);
  });

  for (const [field, bad] of [
    ['shape', 'round'],
    ['mode', 'sepia'],
    ['size', 'xl'],
  ]) {
    test(`a bad ${field} is a 400 naming it`, async () => {
      const res = await app.get(`/listings/alpha/badges?${field}=${bad}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const p = await res.json();
      expect(p.errors).toEqual([expect.objectContaining({ field, in: 'query' })]);
    });
  }

  test('unknown query parameters are a 400', async () => {
    const res = await app.get('/listings/alpha/badges?colour=red');
    expect(res.status).toBe(400);
  });

  test("404 for an unknown slug, a draft, another site's listing and a malformed slug", async () => {
    for (const slug of ['nope', 'hidden', 'foreign', 'Not_A_Slug']) {
      const res = await app.get(`/listings/${slug}/badges`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  test('the kinds follow the data: awaiting_badge gets listed only, scheduled paid and claimed, live free', async () => {
    const cases: [string, string[]][] = [
      ['waiting', ['listed']],
      ['sched', ['listed', 'featured', 'verified']],
      ['plain', ['listed', 'launched']], // four reviews: not top rated
    ];
    for (const [slug, kinds] of cases) {
      const { status, body } = await app.json(`/listings/${slug}/badges`);
      expect(status).toBe(200);
      expect(kindsOf(body)).toEqual(kinds);
    }
    const { body } = await app.json('/listings/waiting/badges?mode=light');
    expect(body.listing.status).toBe('awaiting_badge');
    expect((await app.get(body.items[0].svg_url)).status).toBe(200);
  });
});

describe('badge images', () => {
  const img = (path: string, init?: RequestInit) => app.get(`${app.url}/badges/${path}`, init);

  test('serve SVG with caching headers, an ETag and 304 on If-None-Match', async () => {
    const res = await img('alpha/listed.svg?shape=standard&mode=light&size=m');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await img('alpha/listed.svg?shape=standard&mode=light&size=m', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    const other = await img('alpha/listed.svg?shape=standard&mode=dark&size=m', { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
  });

  test('the SVG carries the escaped site name, the label and, for awards, rank and week', async () => {
    const root = svgRoot(await (await img(`alpha/award-${W1}.svg?shape=square&mode=dark&size=l`)).text());
    const title = root.children.find((c) => (c as XmlNode).name === 'title') as XmlNode;
    expect(textOf(title)).toBe(`Acme alpha was Launch of the Week #1 on ${SITE}, week of ${W1}`);
    const shown = textOf(root);
    expect(shown).toContain(SITE);
    expect(shown.toUpperCase()).toContain('LAUNCH OF THE WEEK #1');
    expect(shown).toContain(W1);
  });

  test('defaults to standard, light, m when the query is left out', async () => {
    const res = await img('alpha/listed.svg');
    const plain = await (await img('alpha/listed.svg?shape=standard&mode=light&size=m')).text();
    expect(await res.text()).toBe(plain);
  });

  test('404 for a kind the listing may not show, an unknown kind or file, an unknown or hidden listing', async () => {
    for (const path of [
      'waiting/launched.svg',
      'plain/featured.svg',
      'plain/top-rated.svg',
      'alpha/award-2024-01-01.svg',
      'alpha/gold.svg',
      'alpha/listed.png',
      'alpha/listed',
      'nope/listed.svg',
      'hidden/listed.svg',
      'foreign/listed.svg',
      'Bad_Slug/listed.svg',
    ]) {
      const res = await img(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  test('400 naming the field for a bad shape, mode (auto is not an image) or size', async () => {
    for (const [field, bad] of [
      ['shape', 'hexagon'],
      ['mode', 'auto'],
      ['size', 'xxl'],
    ]) {
      const res = await img(`alpha/listed.svg?${field}=${bad}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const p = await res.json();
      expect(p.errors).toEqual([expect.objectContaining({ field, in: 'query' })]);
    }
    const twice = await img('alpha/listed.svg?size=s&size=l');
    expect(twice.status).toBe(400);
  });
});

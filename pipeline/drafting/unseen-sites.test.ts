// Rules that make drafts hold up on sites nobody tuned for: founders with their own links,
// JSON-LD as a declared source, places from imprints and footers, descriptions that say what
// the product does, and tags from the site's own sentences.
import { describe, expect, test } from 'bun:test';
import { ExtractiveDrafter } from './extractive.ts';
import { fixturePage } from '../../test/fixtures/sites/sites.ts';
import type { CrawledPage } from './types.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const drafter = new ExtractiveDrafter({ now: NOW });
const draft = (pages: CrawledPage[]) => drafter.draft({ pages, categoryNames: [] });
const page = (path: string, title: string, body: string, head = '') =>
  fixturePage(`https://kiln.test${path}`, `<html><head><title>${title}</title>${head}</head><body>${body}</body></html>`);
const HOME = page(
  '/',
  'Kiln — Glaze recipes for potters',
  '<h1>Glaze recipes for potters</h1><p>Kiln keeps every glaze recipe, firing schedule and test tile photo for your pottery studio in one place.</p>',
);

describe('founders and people', () => {
  test('two founders keep their own profile links; the first founder’s are the founder socials', async () => {
    const about = page(
      '/about',
      'About Kiln',
      `<h2>The founders</h2><div class="team-list">
        <div class="team-card"><div class="team-name">Ada Brenner</div><div class="team-role">Co-founder &amp; CEO</div>
          <a href="https://www.linkedin.com/in/adabrenner"><img alt="LinkedIn"></a><a href="https://x.com/adabrenner"><img alt="X"></a></div>
        <div class="team-card"><div class="team-name">Tomas Quill</div><div class="team-role">Co-founder &amp; CTO</div>
          <a href="https://www.linkedin.com/in/tomasquill"><img alt="LinkedIn"></a><a href="https://github.com/tquill"><img alt="GitHub"></a></div>
      </div>
      <h2>Backed by</h2><div class="investor"><div class="investor-name">Sofia Marsh</div><div class="investor-role">Partner, Northwind Ventures</div></div>
      <blockquote>"Kiln saved our studio." <cite>Dan Ode, Founder &amp; CEO, Clayworks</cite></blockquote>`,
    );
    const d = await draft([HOME, about]);
    expect(d.founders.map((f) => [f.value.name, f.value.title])).toEqual([
      ['Ada Brenner', 'Co-founder & CEO'],
      ['Tomas Quill', 'Co-founder & CTO'],
    ]);
    expect(Object.fromEntries(Object.entries(d.founder_socials).map(([k, v]) => [k, v!.value]))).toEqual({
      linkedin: 'https://www.linkedin.com/in/adabrenner',
      x: 'https://x.com/adabrenner',
    });
  });

  test('people listed in one block with their links mixed are given no links rather than each other’s', async () => {
    const team = page(
      '/team',
      'Team',
      `<h2>Founders</h2><div class="people"><h3>Ada Brenner</h3><p>Co-founder &amp; CEO</p><h3>Tomas Quill</h3><p>Co-founder &amp; CTO</p>
       <p><a href="https://x.com/adabrenner">X</a> <a href="https://github.com/tquill">GitHub</a></p></div>`,
    );
    const d = await draft([HOME, team]);
    expect(d.founders.map((f) => f.value.name)).toEqual(['Ada Brenner', 'Tomas Quill']);
    expect(d.founder_socials).toEqual({});
  });

  test('"founded by X and Y", a maker\'s credit and a German founding sentence name founders', async () => {
    const en = await draft([HOME, page('/about', 'About', '<p>Kiln was founded in 2022 by Ada Brenner and Tomas Quill, two potters in Leeds.</p>')]);
    expect(en.founders.map((f) => f.value.name)).toEqual(['Ada Brenner', 'Tomas Quill']);
    const made = await draft([
      page('/', 'Kiln', '<h1>Kiln</h1><p>Kiln keeps your glaze recipes in one place.</p><p>Made by Ada Brenner in Leeds, United Kingdom.</p>'),
    ]);
    expect(made.founders.map((f) => f.value.name)).toEqual(['Ada Brenner']);
    const de = await draft([HOME, page('/ueber-uns', 'Über uns', '<p>Kiln wurde 2021 in Köln von Julia Brandt und Timo Albers gegründet.</p>')]);
    expect(de.founders.map((f) => f.value.name)).toEqual(['Julia Brandt', 'Timo Albers']);
  });
});

describe('structured data as a source', () => {
  test('a JSON-LD-only fact is drafted with its JSON text as the quote; a visible statement wins over it', async () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Kiln","foundingDate":"2020","sameAs":["https://github.com/kilnapp"],"address":{"@type":"PostalAddress","addressLocality":"Leeds","addressCountry":"GB"}}</script>`;
    const d = await draft([page('/', 'Kiln', '<h1>Kiln</h1><p>Kiln keeps every glaze recipe for your pottery studio in one place.</p>', ld)]);
    expect(d.fields.founded_year).toEqual({ value: '2020', evidence: [{ quote: '"foundingDate":"2020"', url: 'https://kiln.test/' }] });
    expect(d.fields.city?.evidence[0]?.quote).toBe('"addressLocality":"Leeds"');
    expect(d.fields.country?.value).toBe('GB');
    expect(d.company_socials.github?.value).toBe('https://github.com/kilnapp');
    const shown = await draft([page('/', 'Kiln', '<h1>Kiln</h1><p>Kiln keeps glaze recipes in one place.</p><p>Kiln was founded in 2019.</p>', ld)]);
    expect(shown.fields.founded_year?.value).toBe('2019');
  });
});

describe('places', () => {
  test('an imprint address written as lines gives the city and country', async () => {
    const imprint = page(
      '/impressum',
      'Impressum',
      '<h1>Impressum</h1><p>Kiln GmbH<br>Ehrenstraße 41<br>50672 Köln<br>Deutschland</p><p>Geschäftsführer: Julia Brandt</p>',
    );
    const d = await draft([HOME, imprint]);
    expect(d.fields.city).toEqual({ value: 'Köln', evidence: [{ quote: '50672 Köln', url: 'https://kiln.test/impressum' }] });
    expect(d.fields.country?.value).toBe('DE');
  });

  test('a footer "Made in Lisbon, Portugal" with a flag, and a British address line with its postcode', async () => {
    const made = await draft([
      page('/', 'Kiln', '<h1>Kiln</h1><p>Kiln keeps glaze recipes in one place.</p><footer><p>Made in Lisbon, Portugal 🇵🇹</p></footer>'),
    ]);
    expect([made.fields.city?.value, made.fields.country?.value]).toEqual(['Lisbon', 'PT']);
    const uk = await draft([
      page(
        '/',
        'Kiln',
        '<h1>Kiln</h1><p>Kiln keeps glaze recipes in one place.</p><footer><p>Kiln Ltd, 5 Mill Lane, Leeds LS1 4AB, United Kingdom</p></footer>',
      ),
    ]);
    expect([uk.fields.city?.value, uk.fields.country?.value]).toEqual(['Leeds', 'GB']);
  });
});

describe('descriptions and tags', () => {
  test('the description is what the product does, not a customer quote, a price, a license or a release note', async () => {
    const d = await draft([
      page(
        '/',
        'Kiln',
        `<h1>Kiln</h1><p>Kiln keeps every glaze recipe, firing schedule and test tile photo for your pottery studio in one place.</p>
        <p>Potters in small studios use Kiln to share recipes with their students, compare test tiles and repeat a firing that worked.</p>
        <p>"We found a glaze we had lost for ten years within a week of using Kiln." — Dan Ode, Clayworks</p>
        <p>One plan for the whole studio: $12 per month, billed yearly, with a free trial for thirty days.</p>
        <p>This release adds firing curves for electric kilns and fixes a bug where photos were rotated in version 2.4.</p>
        <p>The code behind Kiln is open source under the MIT licence, and every hosted plan pays for its development.</p>`,
      ),
    ]);
    const description = d.fields.description?.value ?? '';
    expect(description).toContain('share recipes with their students');
    expect(description).not.toMatch(/Dan Ode|\$12|release|licence/);
  });

  test('tags are key phrases of the site’s own sentences, not its menu, footer or testimonials', async () => {
    const d = await draft([
      page(
        '/',
        'Kiln — Glaze recipes for potters',
        `<nav><a href="/pricing">Pricing plans</a> · <a href="/careers">Career opportunities</a></nav>
        <h1>Glaze recipes for potters</h1><p>Kiln keeps every glaze recipe and firing schedule for your pottery studio.</p>
        <h2>Firing schedules that repeat</h2><p>Save a firing schedule once and run it on any electric kiln.</p>
        <blockquote>"Best cheese shop software ever." <cite>Dan Ode</cite></blockquote>
        <footer><p>Privacy policy · Cookie settings</p></footer>`,
      ),
    ]);
    const tags = (d.fields.tags?.value ?? []) as string[];
    expect(tags).toContain('firing schedule');
    expect(tags.join(' ')).not.toMatch(/career|cookie|cheese|privacy/i);
    for (const e of d.fields.tags!.evidence) expect(e.url).toBe('https://kiln.test/');
  });
});

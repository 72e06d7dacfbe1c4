import { describe, expect, test } from 'bun:test';
import { checkComparison, checkProposal, emptyProposal } from './evidence.ts';
import { fixturePage } from '../../test/fixtures/sites/sites.ts';
import type { DraftProposal, Proposed } from './types.ts';
import type { Evidence } from '../../core/drafts/fields.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const HOME = 'https://acme.test/';
const ABOUT = 'https://acme.test/about';

const about = fixturePage(
  ABOUT,
  `<!doctype html><html><head><title>About Acme</title>
<script type="application/ld+json">{"@type":"Organization","foundingDate":"1850","email":"ld@evil.test"}</script>
<style>.x::after{content:"Founded in 1860"}</style></head><body>
<h1>About Acme</h1>
<p>Acme was founded in 2019 by Jane Doe. We’re based in Berlin, Germany.</p>
<p>Prices start at $12 per month &amp; there is a free plan.</p>
<p>© 2024 Acme GmbH</p>
<p>Write to <a href="mailto:hello@acme.test">our team</a>.</p>
<ul><li>March 2021: Launched version 1.0</li></ul>
<div hidden>Founded in 1850. Contact evil@evil.test <a href="mailto:evil@evil.test">mail</a> <a href="https://x.com/evil">x</a>
  <img src="/evil-logo.png" class="logo"></div>
<!-- Based in Paris, France. Founded in 1851. -->
<script>document.write("Founded in 1852")</script>
<img src="/logo.png" class="logo" alt="Acme">
<p>See the demo</p><iframe src="https://www.youtube.com/embed/abc123"></iframe>
<footer><p>Follow us</p><a href="https://x.com/acme"><svg></svg></a> <a href="https://www.linkedin.com/company/acme">LinkedIn</a>
<a href="https://acme.test/blog/launch">Launch post</a></footer>
</body></html>`,
);
const home = fixturePage(
  HOME,
  `<html><head><title>Acme</title></head><body><h1>Acme</h1>
<p>Project planning and task management for teams.</p></body></html>`,
);
const pages = [home, about];

const ev = (quote: string, url = ABOUT): Evidence => ({ quote, url });
const withField = (field: string, value: string | string[], evidence: Evidence[]): DraftProposal => {
  const p = emptyProposal();
  (p.fields as Record<string, Proposed<string | string[]>>)[field] = { value, evidence };
  return p;
};
const check = (p: DraftProposal, categoryNames?: string[]) => checkProposal(p, pages, { now: NOW, categoryNames });
const field = (name: string, value: string | string[], evidence: Evidence[], categoryNames?: string[]) =>
  check(withField(name, value, evidence), categoryNames).fields[name as keyof DraftProposal['fields']];

describe('quotes', () => {
  test('match word for word after normalising case, whitespace, entities, NFKC, curly quotes and dashes', () => {
    for (const quote of [
      "We're based in Berlin, Germany.", // straight apostrophe, page has a curly one
      'WE’RE   BASED\nin berlin,   germany.',
      'Prices start at $12 per month &amp; there is a free plan.',
      'Prices start at $12 per month & there is a free plan.',
      'Ａｃｍｅ was founded in 2019', // full-width letters fold under NFKC
      'Acme\u00a0was\u00a0founded', // no-break spaces
      'Acme was founded in 2019 by Jane Doe',
    ]) {
      expect(field('tagline', quote.replace(/&amp;/g, '&'), [ev(quote)])).toBeDefined();
    }
  });

  test('must start and end on word boundaries', () => {
    expect(field('tagline', 'cme was founded', [ev('cme was founded')])).toBeUndefined();
    expect(field('tagline', 'Acme was founde', [ev('Acme was founde')])).toBeUndefined();
  });

  test('text in hidden elements, comments, scripts, styles and JSON-LD is never evidence', () => {
    expect(field('founded_year', '1850', [ev('Founded in 1850.')])).toBeUndefined();
    expect(field('country', 'FR', [ev('Based in Paris, France.')])).toBeUndefined();
    expect(field('founded_year', '1852', [ev('Founded in 1852')])).toBeUndefined();
    expect(field('founded_year', '1860', [ev('Founded in 1860')])).toBeUndefined();
    // The JSON-LD's founding date is contradicted by the visible "founded in 2019".
    expect(field('founded_year', '1850', [ev('"foundingDate":"1850"')])).toBeUndefined();
    expect(field('contact_email', 'evil@evil.test', [ev('Contact evil@evil.test')])).toBeUndefined();
  });

  test('a quote found on another crawled page counts, with its URL corrected', () => {
    const out = field('tagline', 'Project planning and task management for teams.', [ev('Project planning and task management for teams.', ABOUT)]);
    expect(out?.evidence).toEqual([{ quote: 'Project planning and task management for teams.', url: HOME }]);
    const unknownPage = field('tagline', 'Project planning and task management', [ev('Project planning and task management', 'https://elsewhere.test/')]);
    expect(unknownPage?.evidence[0]?.url).toBe(HOME);
  });

  test('invented quotes, empty evidence and over-long quotes are dropped', () => {
    expect(field('tagline', 'The best AI platform', [ev('The best AI platform')])).toBeUndefined();
    expect(field('tagline', 'Acme was founded in 2019', [])).toBeUndefined();
    expect(field('tagline', 'Acme was founded in 2019', [ev('')])).toBeUndefined();
    const long = `Acme was founded in 2019 ${'x '.repeat(1200)}`;
    expect(field('tagline', 'Acme was founded in 2019', [ev(long)])).toBeUndefined();
    // Only the genuine quote of a mixed list survives.
    const mixed = field('tagline', 'Acme was founded in 2019', [ev('Acme was founded in 2019 by Jane Doe.'), ev('Acme has 10 million users')]);
    expect(mixed?.evidence).toEqual([ev('Acme was founded in 2019 by Jane Doe.')]);
  });
});

describe('values must be supported by their quotes', () => {
  test('free text: invented wording or numbers are dropped', () => {
    expect(field('tagline', 'The best AI platform', [ev('Acme was founded in 2019 by Jane Doe.')])).toBeUndefined();
    expect(field('pricing_summary', 'From $15 per month', [ev('Prices start at $12 per month & there is a free plan.')])).toBeUndefined();
    expect(field('pricing_summary', 'From $12 per month, free plan', [ev('Prices start at $12 per month & there is a free plan.')])?.value).toBe(
      'From $12 per month, free plan',
    );
  });

  test('founded_year needs the year and a founding word in one quote', () => {
    expect(field('founded_year', '2019', [ev('Acme was founded in 2019 by Jane Doe.')])?.value).toBe('2019');
    expect(field('founded_year', 'Founded 2019', [ev('Acme was founded in 2019 by Jane Doe.')])?.value).toBe('2019');
    expect(field('founded_year', '1850', [ev('Acme was founded in 2019 by Jane Doe.')])).toBeUndefined();
    expect(field('founded_year', '2024', [ev('© 2024 Acme GmbH')])).toBeUndefined();
    expect(field('founded_year', '2027', [ev('Acme was founded in 2019 by Jane Doe.')])).toBeUndefined();
  });

  test('country is an ISO code whose name is in the quote; city must be in the quote', () => {
    const quote = [ev('We’re based in Berlin, Germany.')];
    expect(field('country', 'Germany', quote)?.value).toBe('DE');
    expect(field('country', 'de', quote)?.value).toBe('DE');
    expect(field('country', 'FR', quote)).toBeUndefined();
    expect(field('country', 'ZZ', quote)).toBeUndefined();
    expect(field('city', 'Berlin', quote)?.value).toBe('Berlin');
    expect(field('city', 'Paris', quote)).toBeUndefined();
  });

  test('contact_email is in a quote or a visible mailto link on the quoted page', () => {
    expect(field('contact_email', 'Hello@Acme.test', [ev('Write to our team.')])?.value).toBe('hello@acme.test');
    expect(field('contact_email', 'evil@evil.test', [ev('Write to our team.')])).toBeUndefined();
    expect(field('contact_email', 'not-an-email', [ev('Write to our team.')])).toBeUndefined();
  });

  test('URLs must be visible links, embeds or declared logos of the quoted page', () => {
    const p = emptyProposal();
    p.company_socials = {
      x: { value: 'https://x.com/acme', evidence: [ev('Follow us')] },
      linkedin: { value: 'https://linkedin.com/company/acme/', evidence: [ev('LinkedIn')] },
      github: { value: 'https://github.com/acme', evidence: [ev('Follow us')] }, // not linked
      facebook: { value: 'https://x.com/acme', evidence: [ev('Follow us')] }, // wrong platform
    };
    p.founder_socials = { x: { value: 'https://x.com/evil', evidence: [ev('Follow us')] } }; // hidden link
    const out = check(p);
    expect(Object.keys(out.company_socials).sort()).toEqual(['linkedin', 'x']);
    expect(out.founder_socials).toEqual({});
    // The same link quoted from a page that does not carry it is refused.
    expect(check({ ...emptyProposal(), company_socials: { x: { value: 'https://x.com/acme', evidence: [ev('Acme', HOME)] } } }).company_socials).toEqual({});

    expect(field('logo_url', 'https://acme.test/logo.png', [ev('About Acme')])?.value).toBe('https://acme.test/logo.png');
    expect(field('logo_url', 'https://acme.test/evil-logo.png', [ev('About Acme')])).toBeUndefined();
    expect(field('demo_video_url', 'https://www.youtube.com/embed/abc123', [ev('See the demo')])?.value).toBe('https://www.youtube.com/embed/abc123');
    expect(field('demo_video_url', 'https://acme.test/blog/launch', [ev('Launch post')])).toBeUndefined(); // not a video
    expect(field('demo_video_url', 'https://www.youtube.com/embed/other', [ev('See the demo')])).toBeUndefined();
  });

  test('pricing_model: a named model needs its words; other wording must be on the page', () => {
    const quote = [ev('Prices start at $12 per month & there is a free plan.')];
    expect(field('pricing_model', 'freemium', quote)?.value).toBe('Freemium');
    expect(field('pricing_model', 'Subscription', quote)?.value).toBe('Subscription');
    expect(field('pricing_model', 'One-time payment', quote)).toBeUndefined();
    expect(field('pricing_model', 'Enterprise licence', quote)).toBeUndefined();
  });

  test('categories come only from the list, in its spelling, and need their words quoted', () => {
    const names = ['Project Management', 'Security'];
    const quote = [ev('Project planning and task management for teams.', HOME)];
    expect(field('categories', ['project management', 'Cryptocurrency', 'Security'], quote, names)?.value).toEqual(['Project Management']);
    expect(field('categories', ['Project Management'], quote)).toBeUndefined(); // no list given
  });
});

describe('bounds', () => {
  const words = Array.from({ length: 25 }, (_, i) => `feature${i}`);
  const listPage = fixturePage(
    'https://acme.test/features',
    `<ul>${words.map((w) => `<li>${w}</li>`).join('')}<li>${'long '.repeat(50)}end</li></ul>
    <p>${'Acme syncs files '.repeat(20)}fast.</p><p>${'Berlin'.repeat(30)}</p>`,
  );
  const run = (p: DraftProposal) => checkProposal(p, [listPage], { now: NOW });

  test('lists keep 20 items, each at most 200 characters', () => {
    const out = run(
      withField(
        'features',
        [`${'long '.repeat(50)}end`, ...words],
        words.map((w) => ({ quote: w, url: listPage.url })).concat([{ quote: `${'long '.repeat(50)}end`, url: listPage.url }]),
      ),
    );
    expect(out.fields.features?.value).toEqual(words.slice(0, 20));
  });

  test('long-form text is cut at a word, short facts that are too long are dropped', () => {
    const text = `${'Acme syncs files '.repeat(20)}fast.`;
    const tagline = run(withField('tagline', text, [{ quote: text, url: listPage.url }])).fields.tagline?.value as string;
    expect(tagline.length).toBeLessThanOrEqual(200);
    expect(tagline.endsWith('…')).toBe(true);
    expect(run(withField('city', 'Berlin'.repeat(30), [{ quote: 'Berlin'.repeat(30), url: listPage.url }])).fields.city).toBeUndefined();
  });
});

describe('collections', () => {
  test('FAQs, founders, story and milestones keep only what their quotes state', () => {
    const p = emptyProposal();
    p.faqs = [
      { value: { question: 'Where is Acme based?', answer: 'Berlin, Germany.' }, evidence: [ev('We’re based in Berlin, Germany.')] },
      { value: { question: 'Where is Acme based?', answer: 'In Paris.' }, evidence: [ev('We’re based in Berlin, Germany.')] },
      {
        value: { question: 'Is there a free plan?', answer: 'Yes, forever free with unlimited seats.' },
        evidence: [ev('Prices start at $12 per month & there is a free plan.')],
      },
    ];
    p.founders = [
      { value: { name: 'Jane Doe', title: 'Founder', bio: 'Jane is a former astronaut.' }, evidence: [ev('Acme was founded in 2019 by Jane Doe.')] },
      { value: { name: 'John Invented', title: 'CEO', bio: null }, evidence: [ev('Acme was founded in 2019 by Jane Doe.')] },
    ];
    p.story = {
      story: {
        value: 'Acme was founded in 2019 by Jane Doe in Berlin.',
        evidence: [ev('Acme was founded in 2019 by Jane Doe.'), ev('We’re based in Berlin, Germany.')],
      },
      lessons: { value: 'We learned to never give up on quantum computing.', evidence: [ev('Acme was founded in 2019 by Jane Doe.')] },
    };
    p.milestones = [
      { value: { date: '2019-01-01', title: 'Acme founded', description: null, url: null }, evidence: [ev('Acme was founded in 2019 by Jane Doe.')] },
      { value: { date: '2019-05-04', title: 'Acme founded', description: null, url: null }, evidence: [ev('Acme was founded in 2019 by Jane Doe.')] },
      {
        value: { date: '2021-03-01', title: 'Launched version 1.0', description: null, url: 'https://acme.test/blog/launch' },
        evidence: [ev('March 2021: Launched version 1.0'), ev('Launch post')],
      },
      { value: { date: '2021-03-15', title: 'Launched version 1.0', description: null, url: null }, evidence: [ev('March 2021: Launched version 1.0')] },
      { value: { date: '2021-02-30', title: 'Launched version 1.0', description: null, url: null }, evidence: [ev('March 2021: Launched version 1.0')] },
    ];
    const out = check(p);
    expect(out.faqs.map((f) => f.value)).toEqual([{ question: 'Where is Acme based?', answer: 'Berlin, Germany.' }]);
    expect(out.founders.map((f) => f.value)).toEqual([{ name: 'Jane Doe', title: 'Founder', bio: null }]);
    expect(Object.keys(out.story)).toEqual(['story']);
    expect(out.milestones.map((m) => [m.value.date, m.value.url])).toEqual([
      ['2019-01-01', null],
      ['2021-03-01', 'https://acme.test/blog/launch'],
    ]);
  });
});

describe('comparison', () => {
  const rival = fixturePage('https://rival.test/pricing', '<h1>Rival pricing</h1><p>Rival Pro costs $20 per month.</p>');
  test('each side is backed by its own site; a point with neither side left is dropped', () => {
    const out = checkComparison(
      {
        competitor: { url: 'https://rival.test/', name: 'Rival' },
        points: [
          {
            value: { topic: 'Pricing', product: 'From $12 per month', competitor: '$20 per month' },
            evidence: [ev('Prices start at $12 per month & there is a free plan.'), { quote: 'Rival Pro costs $20 per month.', url: rival.url }],
          },
          // The competitor's side quoted from the product's site does not count for the competitor.
          {
            value: { topic: 'Free plan', product: 'Free plan', competitor: 'Free plan' },
            evidence: [ev('Prices start at $12 per month & there is a free plan.')],
          },
          {
            value: { topic: 'Users', product: '10 million users', competitor: '5 million users' },
            evidence: [ev('Acme was founded in 2019 by Jane Doe.'), { quote: 'Rival pricing', url: rival.url }],
          },
        ],
      },
      pages,
      [rival],
      { now: NOW },
    );
    expect(out.competitor).toEqual({ url: 'https://rival.test/', name: 'Rival' });
    expect(out.points.map((p) => p.value)).toEqual([
      { topic: 'Pricing', product: 'From $12 per month', competitor: '$20 per month' },
      { topic: 'Free plan', product: 'Free plan', competitor: null },
    ]);
    expect(out.points[0]!.evidence.map((e) => e.url)).toEqual([ABOUT, rival.url]);
  });

  test('a competitor name its pages do not show is removed', () => {
    const out = checkComparison({ competitor: { url: 'https://rival.test/', name: 'MegaCorp' }, points: [] }, pages, [rival]);
    expect(out.competitor.name).toBeNull();
  });
});

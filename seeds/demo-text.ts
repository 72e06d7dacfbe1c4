// Text of a demo listing, built from its facts so tagline, description, FAQs and story agree.
import type { LeafSpec, ParentSpec } from './demo-data/index.ts';
import { ADJECTIVES } from './demo-data/words.ts';
import type { Rng } from './random.ts';

export type PricingModel = 'free' | 'freemium' | 'paid' | 'open-source' | 'usage-based';

export interface ListingFacts {
  name: string;
  domain: string;
  parent: ParentSpec;
  leaf: LeafSpec;
  kind: string;
  job: string;
  audience: string;
  adjective: string;
  pricingModel: PricingModel;
  priceCents: number;
  city: string | null;
  foundedYear: number | null;
  hasApi: boolean;
}

/** "a" or "an" before a word, acronyms by how their first letter sounds ("an SDK", "a CRM"). */
export const an = (word: string) => ((/^[A-Z]{2}/.test(word) ? /^[AEFHILMNORSX]/.test(word) : /^[aeiou]/i.test(word)) ? `an ${word}` : `a ${word}`);

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const dollars = (cents: number) => `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;
const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export function pickFacts(rng: Rng, base: Pick<ListingFacts, 'name' | 'domain' | 'parent' | 'leaf'>) {
  return {
    ...base,
    kind: rng.pick(base.leaf.kinds),
    job: rng.pick(base.leaf.jobs),
    audience: rng.pick(base.parent.audiences),
    adjective: rng.pick(ADJECTIVES),
  };
}

export function tagline(rng: Rng, f: ListingFacts): string {
  return rng.pick([
    `${cap(f.adjective)} ${f.kind} for ${f.audience}`,
    `${cap(f.kind)} that helps you ${f.job}`,
    `${cap(f.job)} with a ${f.adjective} ${f.kind}`,
    `The ${f.kind} for ${f.audience} who want to ${f.job}`,
  ]);
}

export function pricingSummary(f: ListingFacts): string {
  const p = dollars(f.priceCents);
  switch (f.pricingModel) {
    case 'free':
      return 'Free for everyone, no paid plans.';
    case 'freemium':
      return `Free plan for small teams; Pro from ${p}/month per seat.`;
    case 'paid':
      return `From ${p}/month after a 14-day free trial.`;
    case 'open-source':
      return `Open source (MIT), free to self-host; managed cloud from ${p}/month.`;
    case 'usage-based':
      return `Pay as you go; typical small teams spend about ${p}/month. Free monthly allowance included.`;
  }
}

export function descriptions(rng: Rng, f: ListingFacts, features: string[], usp: string) {
  const short = `${f.name} is a ${f.adjective} ${f.kind} that helps ${f.audience} ${f.job}.`;
  const parts = [
    `${f.name} is ${an(f.kind)} built for ${f.audience}.`,
    `It helps you ${f.job}, with ${features
      .slice(0, 3)
      .map(lower)
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1')}.`,
    `${usp}.`,
    f.city && f.foundedYear ? `The team has been building it in ${f.city} since ${f.foundedYear}.` : f.city ? `The team is based in ${f.city}.` : '',
    rng.pick([
      `Teams switching from spreadsheets usually get going in an afternoon.`,
      'Most customers are up and running the same day.',
      `New features ship every couple of weeks.`,
    ]),
  ];
  return { short, long: parts.filter(Boolean).join(' ') };
}

export function listingFaqs(rng: Rng, f: ListingFacts): { question: string; answer: string }[] {
  const freeAnswer: Record<PricingModel, string> = {
    free: `Yes, ${f.name} is completely free.`,
    freemium: `Yes. The free plan covers small teams; paid plans add more seats and features.`,
    paid: `There is no free plan, but every paid plan starts with a 14-day free trial.`,
    'open-source': `Yes. The open source edition is free to self-host; the managed cloud is paid.`,
    'usage-based': `You pay only for what you use, and a free monthly allowance covers small projects.`,
  };
  const all = [
    { question: 'Is there a free plan?', answer: freeAnswer[f.pricingModel] },
    { question: `Who is ${f.name} for?`, answer: `${cap(f.audience)} who want to ${f.job}.` },
    f.city ? { question: `Where is ${f.name} based?`, answer: `The team is based in ${f.city}.` } : null,
    {
      question: `Does ${f.name} have an API?`,
      answer: f.hasApi ? 'Yes, there is a documented public API with example code.' : 'Not yet. An API is on the roadmap.',
    },
    {
      question: `How do I move to ${f.name} from another tool?`,
      answer: 'Import a CSV export or connect your current tool; most teams move over in an afternoon.',
    },
    { question: 'Is my data secure?', answer: 'Data is encrypted in transit and at rest, and you can export or delete it at any time.' },
  ].filter((x): x is { question: string; answer: string } => x !== null);
  return [all[0], ...rng.sample(all.slice(1), rng.int(1, 3))];
}

export function founderStory(rng: Rng, f: ListingFacts, founderFirst: string) {
  const year = f.foundedYear ?? 'the early days';
  return {
    title: `Why we built ${f.name}`,
    story: `${founderFirst} started ${f.name} after years of watching ${f.audience} struggle to ${f.job}. What began as an internal tool became ${an(f.kind)} other teams asked to use.`,
    why_started: `Every ${f.kind} we tried was either too complex or too limited. We wanted something ${f.adjective} that a small team could adopt in a day.`,
    problem: `${cap(f.audience)} lose hours every week because their tools do not help them ${f.job}.`,
    journey: `We wrote the first version in ${year}, shared it with ten friendly teams, and rebuilt it twice based on what they told us.`,
    challenges: rng.pick([
      'Our first pricing was far too low, and changing it was painful.',
      'We lost a month to an infrastructure migration we did not need yet.',
      'Hiring our first engineer took twice as long as planned.',
    ]),
    achievements: rng.pick([
      'Hundreds of teams use it every week.',
      'We became profitable without outside funding.',
      'Our biggest customer now runs their whole team on it.',
    ]),
    lessons: rng.pick(['Talk to users every week, not every quarter.', 'Ship the boring features customers ask for.', 'Charge from day one.']),
    whats_next: `Next we are working on deeper integrations and a ${rng.pick(['mobile app', 'public API', 'self-hosted edition', 'team analytics view'])}.`,
  };
}

// The demo listings planned in memory: names, statuses, weeks, text and sections, before any id exists.
import { ATTRIBUTES, LEAVES, type LeafSpec, type ParentSpec } from './demo-data/index.ts';
import {
  MEDIA_CAPTIONS,
  MILESTONE_TITLES,
  NAME_HEADS,
  NAME_TAILS,
  NOT_FOUND_FIELDS,
  PLACES,
  PRICING_USPS,
  SOCIAL_PLATFORMS,
  TLDS,
  UPDATE_TEMPLATES,
  USPS,
} from './demo-data/words.ts';
import { descriptions, founderStory, listingFaqs, pickFacts, pricingSummary, tagline, type ListingFacts, type PricingModel } from './demo-text.ts';
import { addDays, addHours, between, DAY_MS, isoDate, slugify, type Rng } from './random.ts';

export type Status = 'live' | 'scheduled' | 'awaiting_badge' | 'draft';
export const STATUS_COUNTS: [Status, number][] = [
  ['live', 275],
  ['scheduled', 32],
  ['awaiting_badge', 16],
  ['draft', 17],
];
export const LIVE_WEEKS = 16; // the current week and the 15 before it
const SLOTS = 20; // sites.launch_slots_per_week default

export interface PlannedListing {
  idx: number;
  name: string;
  slug: string;
  domain: string;
  url: string;
  parent: ParentSpec;
  leaf: LeafSpec;
  extraLeaves: string[];
  status: Status;
  plan: 'free' | 'paid';
  launchWeek: Date | null;
  launchedAt: Date | null;
  createdAt: Date;
  founders: number[]; // founder indexes, primary first
  row: Record<string, unknown>; // listings columns that need no ids
  faqs: { question: string; answer: string }[];
  socials: [string, string][];
  story: Record<string, string> | null;
  milestones: Record<string, unknown>[];
  media: Record<string, unknown>[];
  updates: { title: string; body: string; created_at: Date }[];
}

function uniqueNames(rng: Rng, n: number): string[] {
  const names = new Set<string>();
  while (names.size < n) names.add(rng.pick(NAME_HEADS) + rng.pick(NAME_TAILS));
  return [...names];
}

/** An upcoming launch week among offsets, never more than SLOTS launches in a week. */
function assignWeek(rng: Rng, used: Map<number, number>, offsets: number[]): number {
  const open = offsets.filter((o) => (used.get(o) ?? 0) < SLOTS);
  const o = rng.pick(open.length ? open : offsets);
  used.set(o, (used.get(o) ?? 0) + 1);
  return o;
}

export function planListings(rng: Rng, now: Date, week0: Date, founderCount: number): PlannedListing[] {
  const total = STATUS_COUNTS.reduce((a, [, n]) => a + n, 0);
  const names = uniqueNames(rng, total);
  const statuses = rng.shuffle(STATUS_COUNTS.flatMap(([s, n]) => Array<Status>(n).fill(s)));
  const primaryFounders = rng.shuffle([...Array(founderCount).keys()]);
  const weekUse = new Map<number, number>();
  const year = now.getUTCFullYear();
  // Live launches fill a shuffled bag of past slots: about 17 a week, never over the cap.
  const liveSlots = rng.shuffle([...Array(LIVE_WEEKS * SLOTS).keys()].map((k) => -Math.floor(k / SLOTS)));

  return names.map((name, idx) => {
    const { parent, leaf } = LEAVES[idx % LEAVES.length];
    const status = statuses[idx];
    const slug = slugify(name);
    const domain = `${slug}.${rng.pick(TLDS)}.example`;
    const url = `https://${domain}`;
    const plan: 'free' | 'paid' =
      status === 'live' ? (rng.chance(0.2) ? 'paid' : 'free') : status === 'scheduled' ? (rng.chance(0.5) ? 'paid' : 'free') : 'free';

    // Weeks are Monday-based UTC; free listings go live as their week opens, paid ones whenever they chose.
    let launchWeek: Date | null = null;
    let launchedAt: Date | null = null;
    let createdAt: Date;
    if (status === 'live') {
      launchWeek = addDays(week0, 7 * liveSlots.pop()!);
      launchedAt = plan === 'free' ? addHours(launchWeek, rng.next() * 2) : addHours(launchWeek, rng.next() * 160);
      const r = rng.next(); // drawn either way, so another `now` does not shift the rest of the stream
      if (launchedAt > now) launchedAt = between(launchWeek, now, r);
      createdAt = addHours(plan === 'free' ? addDays(launchWeek, -rng.int(43, 60)) : addDays(launchedAt, -rng.int(1, 30)), -rng.next() * 20);
    } else if (status === 'scheduled' || status === 'awaiting_badge') {
      const offsets = status === 'awaiting_badge' || (plan === 'free' && rng.chance(0.5)) ? [6, 7, 8] : [1, 2, 3, 4, 5, 6, 7, 8];
      launchWeek = addDays(week0, 7 * assignWeek(rng, weekUse, offsets));
      createdAt = addDays(now, -rng.int(1, 25) - rng.next());
    } else {
      createdAt = addDays(now, -rng.int(0, 30) - rng.next());
    }

    const pricingModel = rng.weighted<PricingModel>(['freemium', 'paid', 'free', 'open-source', 'usage-based'], [35, 25, 10, 15, 15]);
    const priceCents = rng.pick([900, 1200, 1500, 1900, 2900, 4900, 9900, 19900]);
    const stage =
      status === 'live'
        ? rng.weighted(['launched', 'growing', 'established'], [45, 35, 20])
        : status === 'draft'
          ? rng.weighted(['idea', 'pre-launch', 'launched'], [30, 50, 20])
          : rng.weighted(['pre-launch', 'launched', 'growing'], [50, 40, 10]);
    const age = stage === 'established' ? rng.int(6, 12) : stage === 'growing' ? rng.int(2, 6) : stage === 'launched' ? rng.int(0, 3) : rng.int(0, 1);
    const [country, city] = rng.pick(PLACES);
    const notFound = rng.chance(0.18) ? rng.sample(NOT_FOUND_FIELDS, rng.int(1, 2)) : [];
    const missing = (k: (typeof NOT_FOUND_FIELDS)[number]) => notFound.includes(k);
    const hasApi = rng.chance(0.6);

    const facts: ListingFacts = {
      ...pickFacts(rng, { name, domain, parent, leaf }),
      pricingModel,
      priceCents,
      city: missing('city') ? null : city,
      foundedYear: missing('founded_year') ? null : year - age,
      hasApi,
    };
    const features = rng.sample(leaf.features, rng.int(3, 5));
    const usps = [PRICING_USPS[pricingModel], ...rng.sample(USPS, rng.int(2, 3))].filter(Boolean).slice(0, 3);
    const tag = tagline(rng, facts);
    const text = descriptions(rng, facts, features, usps[0]);
    const keywords = [...new Set([...rng.sample(leaf.keywords, rng.int(3, 5)), facts.kind.toLowerCase(), parent.name.toLowerCase()])];

    // Values for SOME of the primary category's attributes, so compare shows empty cells too.
    const attributes: Record<string, string> = {};
    for (const key of leaf.attrs) {
      if (!rng.chance(0.7)) continue;
      if (key === 'open_source') attributes[key] = pricingModel === 'open-source' ? 'Yes' : 'No';
      else if (key === 'free_tier') attributes[key] = ['free', 'freemium', 'open-source'].includes(pricingModel) ? 'Yes' : 'No';
      else if (key === 'public_api') attributes[key] = hasApi ? rng.pick(ATTRIBUTES[key].values.slice(0, -1)) : 'No';
      else attributes[key] = rng.pick(ATTRIBUTES[key].values);
    }

    const live = status === 'live';
    const row: Record<string, unknown> = {
      slug,
      name,
      url,
      domain,
      logo_url: `${url}/logo.png`,
      tagline: tag,
      short_description: text.short,
      description: text.long,
      headline: live ? `${name}: ${facts.job.charAt(0).toUpperCase()}${facts.job.slice(1)}` : null,
      summary: live ? `${text.short} ${pricingSummary(facts)}` : null,
      seo_title: live ? `${name} - ${tag}`.slice(0, 200) : null,
      seo_description: live ? text.short.slice(0, 320) : null,
      stage,
      pricing_model: pricingModel,
      pricing_summary: missing('pricing_summary') ? null : pricingSummary(facts),
      country,
      city: facts.city,
      founded_year: facts.foundedYear,
      demo_video_url: rng.chance(0.3)
        ? `https://www.youtube.com/watch?v=${rng.token(11, 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-')}`
        : null,
      contact_email: missing('contact_email') ? null : `hello@${domain}`,
      features,
      usps,
      keywords,
      attributes,
      status,
      plan,
      launch_week: launchWeek ? isoDate(launchWeek) : null,
      launched_at: launchedAt,
      not_found_on_website: [...notFound],
      created_at: createdAt,
      updated_at: new Date(Math.min(now.getTime(), (launchedAt ?? createdAt).getTime() + rng.int(1, 20) * DAY_MS)),
    };

    // Founders: one primary (founders are reused once all have a company: serial founders), 0-2 co-founders.
    const founders = [primaryFounders[idx % founderCount]];
    const coFounders = rng.weighted([0, 1, 2], [48, 40, 12]);
    while (founders.length < 1 + coFounders) {
      const f = rng.int(0, founderCount - 1);
      if (!founders.includes(f)) founders.push(f);
    }

    const extraLeaves =
      plan === 'paid' && rng.chance(0.6)
        ? rng
            .sample(
              LEAVES.filter((l) => l.leaf.slug !== leaf.slug),
              rng.int(1, 3),
            )
            .map((l) => l.leaf.slug)
        : [];
    const platforms = ['x', 'linkedin', ...rng.sample(SOCIAL_PLATFORMS.slice(2), rng.int(0, 2))];
    if (parent.slug === 'developer-tools' && !platforms.includes('github')) platforms.push('github');
    const socials = platforms.map((p): [string, string] => [p, socialUrl(p, slug)]);

    // Paid sections: unlocked for many paid listings; a few free ones have a story that stays hidden.
    const sections =
      plan === 'paid' && rng.chance(0.65)
        ? rng.chance(0.45)
          ? ['story', 'milestones', 'media']
          : rng.sample(['story', 'milestones', 'media'], rng.int(1, 2))
        : [];
    row.unlocked_sections = ['story', 'milestones', 'media'].filter((s) => sections.includes(s));
    const story = sections.includes('story') || (live && rng.chance(0.04)) ? founderStory(rng, facts, 'We') : null;
    const milestones = sections.includes('milestones') ? planMilestones(rng, now, facts, url) : [];
    const media = sections.includes('media')
      ? rng
          .sample(MEDIA_CAPTIONS, rng.int(2, 4))
          .map((caption, position) => ({ position, kind: 'image', url: `${url}/media/screenshot-${position + 1}.png`, caption }))
      : [];
    if (media.length && rng.chance(0.3))
      media.push({ position: media.length, kind: 'video', url: `https://www.youtube.com/watch?v=${rng.token(11)}`, caption: 'Product tour' });

    const updates =
      live && launchedAt && rng.chance(0.3)
        ? rng
            .sample(UPDATE_TEMPLATES, rng.int(1, 3))
            .map(([title, body]) => ({ title, body: body.replaceAll('{name}', name), created_at: between(launchedAt!, now, rng.next()) }))
            .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
        : [];

    return {
      idx,
      name,
      slug,
      domain,
      url,
      parent,
      leaf,
      extraLeaves,
      status,
      plan,
      launchWeek,
      launchedAt,
      createdAt,
      founders,
      row,
      faqs: listingFaqs(rng, facts),
      socials,
      story,
      milestones,
      media,
      updates,
    };
  });
}

function socialUrl(platform: string, handle: string): string {
  const base: Record<string, string> = {
    x: 'https://x.com/',
    linkedin: 'https://www.linkedin.com/company/',
    github: 'https://github.com/',
    youtube: 'https://www.youtube.com/@',
    producthunt: 'https://www.producthunt.com/products/',
    instagram: 'https://www.instagram.com/',
    medium: 'https://medium.com/@',
  };
  return base[platform] + handle;
}

function planMilestones(rng: Rng, now: Date, f: ListingFacts, url: string) {
  const start = Date.UTC(f.foundedYear ?? now.getUTCFullYear() - 2, 0, 15);
  // Titles keep their list order (first customer before 10,000 users), dates ascend with them.
  const titles = rng
    .sample([...MILESTONE_TITLES.keys()], rng.int(3, 5))
    .sort((a, b) => a - b)
    .map((i) => MILESTONE_TITLES[i]);
  const times = titles.map(() => start + rng.next() * (now.getTime() - DAY_MS - start)).sort((a, b) => a - b);
  return titles.map((title, i) => ({
    date: isoDate(new Date(times[i])),
    title,
    description: `${f.name}: ${title.toLowerCase()}.`,
    url: rng.chance(0.5) ? `${url}/blog/${slugify(title)}` : null,
  }));
}

// People of the demo: founders (public profiles) and the voters and reviewers of the community.
import { FIRST_NAMES, HOBBIES, LAST_NAMES, PAST_ROLES, PLACES } from './demo-data/words.ts';
import { slugify, type Rng } from './random.ts';

export interface PlannedFounder {
  idx: number;
  first: string;
  last: string;
  name: string;
  slug: string;
  title: string;
  country: string;
  hasUser: boolean;
  socials: Record<string, string>;
  avatar_url: string;
  pastRole: string;
  hobby: string;
}

export interface PlannedUser {
  email: string;
  name: string;
}

/** n founders with unique names and slugs; titles, bios and countries follow their first listing. */
export function planFounders(rng: Rng, n: number): PlannedFounder[] {
  const seen = new Set<string>();
  const out: PlannedFounder[] = [];
  while (out.length < n) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const slug = slugify(`${first} ${last}`);
    if (seen.has(slug)) continue;
    seen.add(slug);
    const handle = `${first}${last}`
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z]/g, '');
    const socials: Record<string, string> = { x: `https://x.com/${handle}`, linkedin: `https://www.linkedin.com/in/${slug}` };
    if (rng.chance(0.4)) socials.github = `https://github.com/${handle}`;
    if (rng.chance(0.15)) socials.website = `https://${handle}.blog.example`;
    out.push({
      idx: out.length,
      first,
      last,
      name: `${first} ${last}`,
      slug,
      title: 'Founder',
      country: rng.pick(PLACES)[0],
      hasUser: rng.chance(0.9),
      socials,
      avatar_url: `https://avatars.launchpad.example/${slug}.png`,
      pastRole: rng.pick(PAST_ROLES),
      hobby: rng.pick(HOBBIES),
    });
  }
  return out;
}

const ROLE_PHRASES: Record<string, string> = {
  'CEO & Co-founder': 'co-founded {c} and is its CEO',
  'CTO & Co-founder': 'co-founded {c} and is its CTO',
  'COO & Co-founder': 'co-founded {c} and is its COO',
  'Co-founder, Product': 'co-founded {c} and leads product',
  'Co-founder, Design': 'co-founded {c} and leads design',
  Founder: 'founded {c}',
  'Founder & Engineer': 'founded {c} and still writes most of the code',
};

export function founderBio(f: PlannedFounder, company: string | null): string {
  const role = company ? (ROLE_PHRASES[f.title] ?? 'founded {c}').replace('{c}', company) : 'is a founder';
  return `${f.name} ${role}. Before that, ${f.first} ${f.pastRole}. ${f.hobby}`;
}

/** Community members with unique example.com addresses. */
export function planVoters(rng: Rng, n: number): PlannedUser[] {
  const out: PlannedUser[] = [];
  for (let i = 0; i < n; i++) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const local = `${first}.${last}`
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z.]/g, '');
    out.push({ email: `${local}${i + 1}@example.com`, name: `${first} ${last}` });
  }
  return out;
}

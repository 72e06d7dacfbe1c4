import { afterAll, beforeAll, expect, test } from 'bun:test';
import { searchListingIds } from '../../sql/queries/listings.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

// Search quality guard: typo recall over 1,000 listings. Each query is a listing's name with one
// typo (a letter changed, added or removed, or two neighbours swapped) in one of its words of four
// letters or more, the way people mistype a product they heard of; the listing must be in the first
// five results. Names come in families that share their first word ("Brafin", "Brafin Hub",
// "Brafin Cloud Notes", ...), as products of one maker or namesakes do: the hard case is a short
// name whose corrected query is exactly it, among longer names that share its first word.

const LISTINGS = 1000;
const RECALL_FLOOR = 0.98;

/** A small seeded generator, so every run builds the same names and the same typos. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = [
  'b',
  'br',
  'c',
  'cl',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pl',
  'qu',
  'r',
  's',
  'sk',
  'st',
  't',
  'tr',
  'v',
  'w',
  'z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', 'n', 'r', 'x', 'l', 'm', 'sh', 'ck', 'nt', 'rd'];
const SECOND = ['AI', 'Labs', 'Cloud', 'Hub', 'Desk', 'Flow', 'Studio', 'Analytics', 'CRM', 'Notes', 'Pay', 'Mail', 'Docs', 'Sync', 'Forms'];
const WORDS = [
  'fast',
  'simple',
  'team',
  'project',
  'customer',
  'data',
  'invoice',
  'workflow',
  'meeting',
  'sales',
  'design',
  'code',
  'support',
  'hiring',
  'budget',
];

const pick = <T>(rnd: () => number, xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;

function brand(rnd: () => number): string {
  const syllables = 2 + Math.floor(rnd() * 2);
  let w = '';
  for (let i = 0; i < syllables; i++) w += pick(rnd, ONSETS) + pick(rnd, VOWELS) + (i === syllables - 1 ? pick(rnd, CODAS) : '');
  return w[0]!.toUpperCase() + w.slice(1);
}

/** One edit of `word`, at a random place: change, add or remove a letter, or swap two neighbours. */
function typo(rnd: () => number, word: string): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (;;) {
    const i = Math.floor(rnd() * word.length);
    const kind = Math.floor(rnd() * 4);
    const out =
      kind === 0
        ? word.slice(0, i) + pick(rnd, letters.split('')) + word.slice(i + 1)
        : kind === 1
          ? word.slice(0, i) + pick(rnd, letters.split('')) + word.slice(i)
          : kind === 2
            ? word.slice(0, i) + word.slice(i + 1)
            : i < word.length - 1
              ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
              : word;
    if (out.toLowerCase() !== word.toLowerCase()) return out;
  }
}

interface Synthetic {
  slug: string;
  name: string;
  tagline: string;
  description: string;
  query: string;
}

function synthetic(n: number): Synthetic[] {
  const rnd = prng(14);
  const names = new Set<string>();
  const out: Synthetic[] = [];
  const add = (name: string) => {
    if (out.length >= n || names.has(name.toLowerCase())) return;
    names.add(name.toLowerCase());
    const words = name.split(' ').filter((w) => w.length >= 4);
    const target = words.length ? pick(rnd, words) : name.split(' ')[0]!;
    out.push({
      slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${out.length}`,
      name,
      tagline: `${pick(rnd, WORDS)} ${pick(rnd, WORDS)} for ${pick(rnd, WORDS)} teams`,
      description: `${name} helps with ${pick(rnd, WORDS)} and ${pick(rnd, WORDS)}.`,
      query: name.replace(target, typo(rnd, target)),
    });
  };
  while (out.length < n) {
    const first = brand(rnd);
    // Half the first words stand alone; the others name a family of two to eight listings, the
    // bare word among them half the time.
    const family = rnd() < 0.5 ? 1 : 2 + Math.floor(rnd() * 7);
    if (family === 1 || rnd() < 0.5) add(first);
    for (let i = names.has(first.toLowerCase()) ? 1 : 0; i < family; i++) {
      add(rnd() < 0.7 ? `${first} ${pick(rnd, SECOND)}` : `${first} ${pick(rnd, SECOND)} ${pick(rnd, SECOND)}`);
    }
  }
  return out;
}

let app: TestApp;
const listings = synthetic(LISTINGS);
beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql, siteId) => {
      const col = <K extends keyof Synthetic>(k: K) => listings.map((l) => l[k]);
      await sql`
        with input as (
          select * from unnest(${col('slug')}::text[], ${col('name')}::text[], ${col('tagline')}::text[], ${col('description')}::text[])
            as x(slug, name, tagline, description)),
        c as (insert into companies (name, domain, website_url)
              select name, slug || '.test', 'https://' || slug || '.test' from input returning id, domain)
        insert into listings (site_id, company_id, slug, name, url, domain, tagline, description, status, launched_at, launch_week)
        select ${siteId}, c.id, i.slug, i.name, 'https://' || c.domain, c.domain, i.tagline, i.description, 'live',
               now() - interval '3 days', date_trunc('week', now() - interval '3 days')::date
        from input i join c on c.domain = i.slug || '.test'`;
    },
  });
});
afterAll(() => app.stop());

test(`a name with one typo finds the listing in the top 5 for at least ${RECALL_FLOOR * 100}% of ${LISTINGS} listings`, async () => {
  const [{ n }] = await app.sql`select count(*)::int as n from listings where site_id = ${app.siteId}`;
  expect(n).toBe(LISTINGS);
  const ids = new Map(
    (await app.sql<{ slug: string; id: string }[]>`select slug, id::text from listings where site_id = ${app.siteId}`).map((r) => [r.slug, r.id]),
  );
  const misses: string[] = [];
  for (const l of listings) {
    const { ids: found } = await searchListingIds(app.sql, app.siteId, { q: l.query, status: 'live', sort: 'relevance' }, 1, 5);
    if (!found.map(String).includes(ids.get(l.slug)!)) misses.push(`${l.query} -> ${l.name}`);
  }
  const recall = 1 - misses.length / LISTINGS;
  console.log(`typo recall ${(recall * 100).toFixed(1)}% (${misses.length} misses)${recall < RECALL_FLOOR ? `:\n${misses.join('\n')}` : ''}`);
  expect(recall).toBeGreaterThanOrEqual(RECALL_FLOOR);

  // The plain trigram search other directories run (bench/typo-peer.ts) finds fewer of them.
  let peerFound = 0;
  for (const l of listings) {
    const top = await app.sql<{ id: string }[]>`
      select l.id::text from listings l
      where l.site_id = ${app.siteId} and l.status = 'live' and (lower(l.name) % lower(${l.query}) or lower(l.tagline) % lower(${l.query}))
      order by greatest(similarity(lower(l.name), lower(${l.query})), similarity(lower(l.tagline), lower(${l.query}))) desc, l.id limit 5`;
    if (top.some((r) => r.id === ids.get(l.slug))) peerFound++;
  }
  console.log(`the trigram peer's recall ${((100 * peerFound) / LISTINGS).toFixed(1)}%`);
  expect(peerFound).toBeLessThan(LISTINGS - misses.length);
});

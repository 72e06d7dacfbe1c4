// Synthetic load-test data: `bun seeds/synthetic.ts --listings 100000` adds N live/scheduled listings
// with companies, votes, follows, views and Domain Ratings, all with set-based SQL.
import { Presets, SingleBar } from 'cli-progress';
import { loadConfig } from '../core/config.ts';
import { type Sql, transaction } from '../sql/db.ts';
import { prepareDatabase } from '../core/database.ts';
import { seedDemo } from './demo.ts';
import { storeMissingDocuments } from '../sql/queries/listing-profile.ts';
import { insertSyntheticActivity, insertSyntheticListings, planSynthetic } from './synthetic-sql.ts';

export interface SyntheticResult {
  listings: number;
  live: number;
  users: number;
  votes: number;
  follows: number;
  views: number;
  awards: number;
  ms: number;
}

/** Smallest prime >= n: voters are picked with a stride modulo a prime, so no voter repeats on a listing. */
function primeAtLeast(n: number): number {
  const isPrime = (k: number) => {
    for (let d = 2; d * d <= k; d++) if (k % d === 0) return false;
    return k >= 2;
  };
  while (!isPrime(n)) n++;
  return n;
}

/** The steps of a synthetic fill, in order: progress is reported as each one finishes. */
export const SYNTHETIC_STEPS = [
  'plan listings and weeks',
  'insert listings, companies and categories',
  'insert voters, votes, follows and views',
  'count what was added',
  'update planner statistics',
  'refresh the ranking views',
  'award finished weeks',
  "store the listings' profiles",
  'vacuum what was filled',
] as const;

/** The tables a fill writes itself: analyzed inside it, so that its refresh plans on their statistics. */
const FILLED_TABLES = ['listings', 'listing_categories', 'votes', 'follows', 'listing_views', 'domain_ratings', 'companies', 'users'];
/** The tables the fill's refresh and awards write from them. */
const DERIVED_TABLES = [
  'awards',
  'listing_stats',
  'listing_domain_rating',
  'category_members',
  'category_counts',
  'primary_category_counts',
  'listing_facet_counts',
  'search_words',
  'search_lexemes',
  'listing_documents',
];

export type SyntheticProgress = (done: number, total: number, step: string) => void;

export async function seedSynthetic(sql: Sql, siteId: number, n: number, onProgress: SyntheticProgress = () => {}): Promise<SyntheticResult> {
  if (!Number.isInteger(n) || n < 1) throw new Error(`listings must be a positive integer, got ${n}`);
  const started = Date.now();
  const [{ has }] = await sql`select exists (select 1 from categories) as has`;
  if (!has) await seedDemo(sql, siteId); // synthetic listings need the category tree

  const users = primeAtLeast(Math.max(1009, Math.ceil(n / 5)));
  let done = 0;
  const step = () => {
    done++;
    onProgress(done, SYNTHETIC_STEPS.length, SYNTHETIC_STEPS[done - 1]);
  };
  // A bulk load: the search indexes gather the fill's entries in their pending lists and merge them
  // in batches (the 100k fill's inserts took 76 s writing each entry straight in, 34 s so), and
  // are set back to writing straight in, merged, once it is done (migration 0020).
  await sql`select set_gin_pending_lists(true)`;
  const result = await transaction(sql, async (tx) => {
    await tx`set local time zone 'UTC'`;
    // The VACUUM after the fill can mark a page all-visible only once this commit is flushed: on a
    // server running with synchronous_commit off (the bench's throwaway cluster) it found half the
    // fill's pages of listings too new, and left them to a later autovacuum.
    await tx`set local synchronous_commit = on`;
    const leaves = await tx`
      select id from categories c where not exists (select 1 from categories k where k.parent_id = c.id) order by id`;
    await planSynthetic(
      tx,
      siteId,
      n,
      leaves.map((r) => Number(r.id)),
    );
    step();
    await insertSyntheticListings(tx, siteId);
    step();
    await insertSyntheticActivity(tx, users);
    step();
    const [counts] = await tx`
      select count(*) filter (where status = 'live')::int as live,
             (select count(*) from votes v join synth s on s.listing_id = v.listing_id)::int as votes,
             (select count(*) from follows f join synth s on s.listing_id = f.listing_id)::int as follows,
             (select count(*) from listing_views w join synth s on s.listing_id = w.listing_id)::int as views
      from synth`;
    step();
    // Fresh planner statistics for the bulk-loaded tables, or the first reads plan as if they were empty.
    await tx.unsafe(`analyze ${FILLED_TABLES.join(', ')}`);
    step();
    // Rankings first, then awards for finished weeks that had none, then tell edges.
    await tx`select refresh_directory_views()`;
    step();
    const [{ awards }] = await tx`
      select coalesce(sum(award_week(${siteId}, week)), 0)::int as awards
      from synth_weeks where not awarded and week < date_trunc('week', now())::date`;
    step();
    // Stored now, as a directory's read listings have them (migration 0021): else the bench's first
    // pass over the long tail would measure each profile being built and stored.
    await storeMissingDocuments(tx, siteId);
    await tx`select directory_changed()`;
    step();
    return { ...counts, awards } as { live: number; votes: number; follows: number; views: number; awards: number };
  }).finally(() =>
    // Committed synchronously, as the fill is: an asynchronous commit in the fill's commit-log group
    // keeps the VACUUM below from marking the fill's pages all-visible (see there).
    transaction(sql, async (tx) => {
      await tx`set local synchronous_commit = on`;
      await tx`select set_gin_pending_lists(false)`;
    }),
  );
  // VACUUM sets the visibility maps, so index-only scans (category counts, the rank-order walks, typo
  // correction's word lists) need no heap visits; left to autovacuum, a freshly filled million
  // served the bench's mixed traffic at about half its later rate for the first minutes. Outside
  // the transaction: VACUUM cannot run inside one. Then ANALYZE of what the refresh wrote (the
  // filled tables were analyzed above), as its own command: in VACUUM (ANALYZE) each table's
  // ANALYZE commits, asynchronously where synchronous_commit is off, and until that is flushed
  // VACUUM cannot hint the fill's rows of the same commit-log group as committed, so it left the
  // tables after the first few with most of their pages not all-visible.
  await sql.unsafe(`vacuum ${[...FILLED_TABLES, ...DERIVED_TABLES].join(', ')}`);
  await sql.unsafe(`analyze ${DERIVED_TABLES.join(', ')}`);
  step();
  return { listings: n, users, ...result, ms: Date.now() - started };
}

function parseListings(argv: string[]): number {
  const i = argv.findIndex((a) => a === '--listings' || a.startsWith('--listings='));
  if (i < 0) return 100_000;
  const raw = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000) throw new Error(`--listings must be an integer between 1 and 10000000, got "${raw}"`);
  return n;
}

/**
 * Progress on the terminal: a bar (cli-progress) when stdout is a TTY, otherwise one plain line
 * per step (logs and CI).
 */
function progressReporter(n: number): { update: SyntheticProgress; stop(): void } {
  if (!process.stdout.isTTY) {
    return {
      update: (done, total, step) => console.log(`[${done}/${total}] ${step}`),
      stop: () => {},
    };
  }
  const bar = new SingleBar(
    { format: `synthetic ${n} listings [{bar}] {value}/{total} {step}`, hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  bar.start(SYNTHETIC_STEPS.length, 0, { step: SYNTHETIC_STEPS[0] });
  return {
    update: (done, _total, step) => bar.update(done, { step: done < SYNTHETIC_STEPS.length ? SYNTHETIC_STEPS[done] : `${step}: done` }),
    stop: () => bar.stop(),
  };
}

async function main() {
  const n = parseListings(process.argv.slice(2));
  const config = loadConfig(process.env);
  // Beside a running `npm start`, its embedded server is used as it is (a second one cannot start
  // on the same data); the edges it runs see the new listings at once.
  const db = await prepareDatabase(config, { connections: 2, reuseRunning: true });
  const { sql, site } = db;
  const where = config.databaseUrl
    ? 'DATABASE_URL'
    : db.reused
      ? `the embedded PostgreSQL already running on ${config.dataDir} (another npm start): adding to it`
      : 'embedded PostgreSQL';
  let progress: ReturnType<typeof progressReporter> | undefined;
  try {
    if (db.applied.length) console.log(`migrations applied: ${db.applied.join(', ')}`);
    console.log(`adding ${n} synthetic listings to site "${site.key}" (${where})...`);
    progress = progressReporter(n);
    const r = await seedSynthetic(sql, site.id, n, progress.update);
    progress.stop();
    progress = undefined;
    console.log(
      `done in ${(r.ms / 1000).toFixed(1)} s: ${r.listings} listings (${r.live} live), ${r.users} voters, ` +
        `${r.votes} votes, ${r.follows} follows, ${r.views} view-days, ${r.awards} new awards; ranking views refreshed`,
    );
  } finally {
    progress?.stop();
    await db.stop();
  }
}

if (import.meta.main) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : `seed:synthetic failed: ${String(err)}`);
    process.exit(1);
  });
}

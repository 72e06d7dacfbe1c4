import postgres from 'postgres';
import { loadConfig } from '../core/config.ts';
import { prepareDatabase } from '../core/database.ts';

/**
 * `npm run bench:refresh`: how long the worker's minute refresh takes on the database `npm start`
 * uses (DATA_DIR, or DATABASE_URL): after a busy minute of activity, REFRESH_ROUNDS times (3), and
 * with REFRESH_FULL=1 once more with every listing noted (what migration 0013 and a bulk seed pay).
 * Fill the database first with `npm run seed:synthetic -- --listings 1000000`. Each round runs in
 * one transaction that is rolled back: the simulated activity (votes, follows, views, reviews,
 * publishes, edits, Domain Ratings) never stays, and every round starts from the same state.
 */
const rounds = Number(process.env.REFRESH_ROUNDS ?? 3);
const busy = {
  votes: Number(process.env.REFRESH_VOTES ?? 3000),
  follows: 300,
  views: 5000,
  reviews: 50,
  statusChanges: 5,
  edits: 5,
  ratings: 20,
};

const config = loadConfig(process.env);
const db = await prepareDatabase(config, { connections: 2, reuseRunning: true });
const { site } = db;
// Its own connection, so the plans auto_explain sends as notices are printed.
const sql = postgres(db.url, { max: 2, onnotice: (n) => console.log(`  ${n.message.split('\n').slice(0, 2).join(' | ').slice(0, 300)}`) });
const [{ listings, votes }] = await sql<{ listings: number; votes: number }[]>`
  select (select count(*) from listings where site_id = ${site.id})::int as listings, (select count(*) from votes)::int as votes`;
console.log(`${listings} listings, ${votes} votes`);

const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;

type Tx = postgres.TransactionSql<Record<string, never>>;

/** A busy minute: votes (a third on this week's launches), follows, views, reviews, publishes, edits, ratings. */
async function activity(tx: Tx) {
  await tx`create temp table some_users on commit drop as select id from users tablesample system (5) limit 5000`;
  await tx`create temp table some_listings on commit drop as
      select id, company_id from listings tablesample system (1) where site_id = ${site.id} and status = 'live' limit 5000`;
  await tx`insert into some_listings select id, company_id from listings
      where site_id = ${site.id} and status = 'live' and launch_week = date_trunc('week', now() at time zone 'utc')::date limit 500`;
  await tx`insert into votes (listing_id, user_id)
      select (select id from some_listings offset floor(random() * (select count(*) from some_listings)) limit 1), u.id
      from some_users u, generate_series(1, ${Math.ceil(busy.votes / 5000)}) g limit ${busy.votes} on conflict do nothing`;
  await tx`insert into follows (listing_id, user_id)
      select l.id, (select id from some_users offset floor(random() * (select count(*) from some_users)) limit 1) from some_listings l limit ${busy.follows}
      on conflict do nothing`;
  await tx`insert into listing_views (listing_id, day, views)
      select distinct id, (now() at time zone 'utc')::date, 1 from some_listings limit ${busy.views}
      on conflict (listing_id, day) do update set views = listing_views.views + 1`;
  await tx`insert into reviews (listing_id, user_id, rating)
      select l.id, (select id from some_users offset floor(random() * (select count(*) from some_users)) limit 1), 1 + floor(random() * 5)::int
      from some_listings l offset 100 limit ${busy.reviews} on conflict do nothing`;
  await tx`update listings set status = case status when 'live' then 'hidden' else 'live' end
      where id in (select id from some_listings offset 200 limit ${busy.statusChanges})`;
  await tx`update listings set tagline = left(coalesce(tagline, '') || ' refreshed', 200)
      where id in (select id from some_listings offset 300 limit ${busy.edits})`;
  await tx`insert into domain_ratings (company_id, measured_on, rating)
      select company_id, (now() at time zone 'utc')::date, floor(random() * 101)::int from some_listings offset 400 limit ${busy.ratings}
      on conflict do nothing`;
}

const noted = async (tx: Tx) =>
  (
    await tx<{ n: number }[]>`
    select ((select count(distinct listing_id) from listing_stats_dirty))::int as n`
  )[0].n;

/**
 * The refresh; with REFRESH_EXPLAIN=1 each statement inside it slower than 30 ms is printed with its
 * plan (auto_explain at NOTICE level), which says where the time goes.
 */
async function refresh(tx: Tx) {
  if (process.env.REFRESH_EXPLAIN === '1') {
    await tx`load 'auto_explain'`;
    await tx`select set_config('auto_explain.log_min_duration', '30', true), set_config('auto_explain.log_nested_statements', 'on', true),
                    set_config('auto_explain.log_level', 'notice', true), set_config('auto_explain.log_analyze', 'on', true)`;
  }
  await tx`select refresh_directory_views()`;
}

/** Runs a round in a transaction and rolls it back, so the database is left as it was. */
class RolledBack extends Error {}
async function rolledBack(round: (tx: Tx) => Promise<void>) {
  await sql
    .begin(async (tx) => {
      await round(tx);
      throw new RolledBack();
    })
    .catch((e) => {
      if (!(e instanceof RolledBack)) throw e;
    });
}

try {
  for (let i = 1; i <= rounds; i++) {
    await rolledBack(async (tx) => {
      let t = performance.now();
      await activity(tx);
      const activityTook = ms(t);
      const n = await noted(tx);
      t = performance.now();
      await refresh(tx);
      console.log(`round ${i}: a busy minute (${activityTook}) noted ${n} listings; refresh_directory_views() ${ms(t)}`);
    });
  }
  if (process.env.REFRESH_FULL === '1') {
    await rolledBack(async (tx) => {
      await tx`insert into listing_stats_dirty select id from listings`;
      const t = performance.now();
      await refresh(tx);
      console.log(`every listing noted (${listings}): refresh_directory_views() ${ms(t)}`);
    });
  }
} finally {
  await sql.end();
  await db.stop();
}

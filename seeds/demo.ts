// Demo data for an empty, migrated database: deterministic (seeded PRNG), dates relative to `now`.
import { type Sql, transaction } from '../sql/db.ts';
import { insertMany, insertReturning, type Row } from './bulk.ts';
import { planActivity, planCompanyMetrics, type ListingRef } from './demo-activity.ts';
import { FOUNDER_TITLES } from './demo-data/words.ts';
import { founderBio, planFounders, planVoters } from './demo-people.ts';
import { LIVE_WEEKS, planListings, type PlannedListing } from './demo-plan.ts';
import { seedCategories, seedProducts, seedQuestionsAndBlog, seedSisterSites } from './demo-static.ts';
import { addDays, addHours, isoDate, mondayOf, Rng } from './random.ts';

const SEED = 0x5eed_2024;
const FOUNDERS = 260;
const VOTERS = 400;
const CO_FOUNDER_TITLES = FOUNDER_TITLES.filter((t) => t !== 'Founder');

export async function seedDemo(sql: Sql, siteId: number, opts: { now?: Date } = {}): Promise<{ listings: number; categories: number }> {
  const now = opts.now ?? new Date();
  const week0 = mondayOf(now);
  const rng = new Rng(SEED);

  // Everything is planned in memory first, so the same seed gives the same data whatever the ids.
  const founders = planFounders(rng, FOUNDERS);
  const listings = planListings(rng, now, week0, FOUNDERS);
  const voters = planVoters(rng, VOTERS);
  const firstCompany = new Map<number, PlannedListing>();
  for (const l of listings) {
    l.founders.forEach((f, pos) => {
      const founder = founders[f];
      if (!firstCompany.has(f)) {
        firstCompany.set(f, l);
        founder.title = pos === 0 ? rng.pick(FOUNDER_TITLES.slice(0, 3)) : rng.pick(CO_FOUNDER_TITLES);
        if (rng.chance(0.8)) founder.country = l.row.country as string;
      }
      if (pos === 0 && l.status !== 'live') founder.hasUser = true; // submitted listings always have an owner
    });
  }

  return transaction(sql, async (tx) => {
    await tx`set local time zone 'UTC'`; // launch weeks and vote windows are UTC
    const [busy] = await tx`select exists (select 1 from categories) or exists (select 1 from listings) as busy`;
    if (busy.busy) throw new Error('seedDemo expects an empty database (categories or listings already exist)');

    const categoryIds = await seedCategories(tx);
    await seedProducts(tx, siteId, now);
    await seedQuestionsAndBlog(tx, now);
    const sisters = await seedSisterSites(tx);

    // People: founders with accounts own their listings; voters are the community.
    const founderUsers = founders
      .filter((f) => f.hasUser)
      .map((f) => ({
        email: `${f.slug}@example.com`,
        name: f.name,
        created_at: addDays(firstCompany.get(f.idx)?.createdAt ?? now, -rng.int(1, 30)),
      }));
    const voterUsers = voters.map((v) => ({ ...v, created_at: addDays(now, -rng.int(120, 700)) }));
    const userIds = new Map((await insertReturning(tx, 'users', [...founderUsers, ...voterUsers], ['id', 'email'])).map((r) => [r.email, r.id]));
    const founderUserId = (idx: number) => (founders[idx].hasUser ? userIds.get(`${founders[idx].slug}@example.com`)! : null);
    const voterIds = voters.map((v) => userIds.get(v.email)!);

    const founderIds = new Map(
      (
        await insertReturning(
          tx,
          'founders',
          founders.map((f) => ({
            slug: f.slug,
            user_id: founderUserId(f.idx),
            name: f.name,
            title: f.title,
            bio: founderBio(f, firstCompany.get(f.idx)?.name ?? null),
            country: f.country,
            avatar_url: f.avatar_url,
            socials: f.socials,
            created_at: addDays(firstCompany.get(f.idx)?.createdAt ?? now, -rng.int(1, 60)),
          })),
          ['id', 'slug'],
        )
      ).map((r) => [r.slug, r.id]),
    );

    const companyIds = new Map(
      (
        await insertReturning(
          tx,
          'companies',
          listings.map((l) => ({
            name: l.name,
            domain: l.domain,
            website_url: l.url,
            created_at: l.createdAt,
          })),
          ['id', 'domain'],
        )
      ).map((r) => [r.domain, r.id]),
    );

    // Listings on this site, then a few of the same companies on the other sites of the network.
    const ownerOf = (l: PlannedListing) => founderUserId(l.founders[0]);
    const mainRows = listings.map((l) => ({
      ...l.row,
      site_id: siteId,
      company_id: companyIds.get(l.domain)!,
      owner_user_id: ownerOf(l),
      primary_category_id: categoryIds.get(l.leaf.slug)!,
    }));
    const liveMain = listings.filter((l) => l.status === 'live');
    const sisterPlans: { site: number; l: PlannedListing; row: Row }[] = [];
    for (const [site, count] of sisters) {
      for (const l of rng.sample(liveMain, count)) {
        const week = addDays(week0, -7 * rng.int(1, LIVE_WEEKS - 1));
        sisterPlans.push({
          site,
          l,
          row: {
            ...mainRows[l.idx],
            site_id: site,
            plan: 'free',
            unlocked_sections: [],
            headline: `${l.name}, as picked by our editors`,
            summary: `${l.row.short_description} Featured across our network.`,
            launch_week: isoDate(week),
            launched_at: addHours(week, rng.next() * 100),
          },
        });
      }
    }
    const inserted = await insertReturning(tx, 'listings', [...mainRows, ...sisterPlans.map((s) => s.row)], ['id', 'site_id', 'slug']);
    const idOf = new Map(inserted.map((r) => [`${r.site_id}/${r.slug}`, r.id as number]));
    const mainId = (l: PlannedListing) => idOf.get(`${siteId}/${l.slug}`)!;
    const sisterId = (s: (typeof sisterPlans)[number]) => idOf.get(`${s.site}/${s.l.slug}`)!;

    await insertMany(tx, 'listing_categories', [
      ...listings.flatMap((l) => [
        { listing_id: mainId(l), category_id: categoryIds.get(l.leaf.slug)!, is_primary: true },
        ...l.extraLeaves.map((slug) => ({ listing_id: mainId(l), category_id: categoryIds.get(slug)!, is_primary: false })),
      ]),
      ...sisterPlans.map((s) => ({ listing_id: sisterId(s), category_id: categoryIds.get(s.l.leaf.slug)!, is_primary: true })),
    ]);
    await insertMany(tx, 'listing_founders', [
      ...listings.flatMap((l) =>
        l.founders.map((f, position) => ({
          listing_id: mainId(l),
          founder_id: founderIds.get(founders[f].slug)!,
          role: position === 0 ? founders[f].title : rng.pick(CO_FOUNDER_TITLES),
          position,
        })),
      ),
      ...sisterPlans.map((s) => ({
        listing_id: sisterId(s),
        founder_id: founderIds.get(founders[s.l.founders[0]].slug)!,
        role: founders[s.l.founders[0]].title,
        position: 0,
      })),
    ]);
    await insertMany(
      tx,
      'listing_faqs',
      listings.flatMap((l) => l.faqs.map((q, position) => ({ listing_id: mainId(l), position, ...q }))),
    );
    await insertMany(
      tx,
      'listing_socials',
      listings.flatMap((l) => l.socials.map(([platform, url]) => ({ listing_id: mainId(l), platform, url }))),
    );
    await insertMany(
      tx,
      'listing_media',
      listings.flatMap((l) => l.media.map((m) => ({ listing_id: mainId(l), ...m }))),
    );
    await insertMany(
      tx,
      'milestones',
      listings.flatMap((l) => l.milestones.map((m) => ({ listing_id: mainId(l), ...m }))),
    );
    await insertMany(
      tx,
      'founder_stories',
      listings.filter((l) => l.story).map((l) => ({ listing_id: mainId(l), ...l.story, updated_at: l.row.updated_at })),
    );
    await insertMany(
      tx,
      'listing_updates',
      listings.flatMap((l) => l.updates.map((u) => ({ listing_id: mainId(l), ...u }))),
    );

    // Community activity and company metrics.
    const refs: ListingRef[] = [
      ...listings.map((l) => ({
        id: mainId(l),
        status: l.status,
        leaf: l.leaf.slug,
        ownerId: ownerOf(l),
        onOtherSite: false,
        launchWeek: l.launchWeek,
        launchedAt: l.launchedAt,
        createdAt: l.createdAt,
      })),
      ...sisterPlans.map((s) => ({
        id: sisterId(s),
        status: 'live',
        leaf: s.l.leaf.slug,
        ownerId: ownerOf(s.l),
        onOtherSite: true,
        launchWeek: new Date(`${s.row.launch_week}T00:00:00Z`),
        launchedAt: s.row.launched_at as Date,
        createdAt: s.l.createdAt,
      })),
    ];
    // Activity and metrics draw from their own streams: how many draws they make depends on `now`.
    const act = planActivity(new Rng(SEED + 1), now, refs, voterIds);
    await insertMany(tx, 'votes', act.votes);
    // What the site stores with each vote (get_launch_integrity reads it): the demo's voters are
    // established people, each on a network of their own; derived from ids, so no draws change.
    await tx`
      insert into vote_signals (vote_id, account_age, sign_in, network, ua_family, visited_before, created_at)
      select v.id, greatest(v.created_at - u.created_at, interval '60 days'), 'email_link',
             vote_network_hash('10.' || (u.id % 250) || '.' || (u.id / 250 % 250) || '.0/24'),
             (array['chrome', 'firefox', 'safari', 'edge'])[1 + (u.id % 4)::int], v.id % 5 <> 0, v.created_at
      from votes v join users u on u.id = v.user_id
      where v.listing_id = any (${act.votes.map((x) => String(x.listing_id)).filter((x, i, a) => a.indexOf(x) === i)}::bigint[])
      on conflict (vote_id) do nothing`;
    await insertMany(tx, 'follows', act.follows);
    await insertMany(tx, 'reviews', act.reviews);
    await insertMany(tx, 'listing_views', act.views);
    await insertMany(tx, 'listing_alternatives', act.alternatives);
    await insertMany(tx, 'billboard_contributions', act.billboard);
    const metrics = planCompanyMetrics(new Rng(SEED + 2), now, [...companyIds.values()]);
    await insertMany(tx, 'domain_ratings', metrics.ratings);
    await insertMany(tx, 'revenue_figures', metrics.revenue);

    // Rankings, then Launch of the Week awards for every finished week on every site, then fresh views.
    await tx`select refresh_directory_views()`;
    await tx`
      select award_week(w.site_id, w.week)
      from (select distinct site_id, launch_week as week from listings
            where status = 'live' and launch_week < ${isoDate(week0)}::date) w
      order by w.site_id, w.week`;
    await tx`select refresh_directory_views()`;

    const [counts] = await tx`
      select (select count(*) from listings where site_id = ${siteId})::int as listings,
             (select count(*) from categories)::int as categories`;
    return { listings: counts.listings as number, categories: counts.categories as number };
  });
}

// Community activity on the demo listings: votes, follows, reviews, views, alternatives, billboard money.
import { OWNER_REVIEWS, REVIEW_BODIES, SPAM_REVIEWS } from './demo-data/words.ts';
import { addDays, addHours, between, isoDate, mondayOf, type Rng } from './random.ts';

export interface ListingRef {
  id: number;
  status: string;
  leaf: string;
  ownerId: number | null;
  onOtherSite: boolean;
  launchWeek: Date | null;
  launchedAt: Date | null;
  createdAt: Date;
}

type Row = Record<string, unknown>;
export interface Activity {
  votes: Row[];
  follows: Row[];
  reviews: Row[];
  views: Row[];
  alternatives: Row[];
  billboard: Row[];
}

const minDate = (a: Date, b: Date) => (a < b ? a : b);

export function planActivity(rng: Rng, now: Date, listings: ListingRef[], voters: number[]): Activity {
  const act: Activity = { votes: [], follows: [], reviews: [], views: [], alternatives: [], billboard: [] };
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const live = listings.filter((l) => l.status === 'live' && l.launchedAt && l.launchWeek);

  for (const l of live) {
    const launchedAt = l.launchedAt!;
    const weekEnd = addDays(l.launchWeek!, 7);
    // Heavy-tailed popularity; a launch in the current week has only the votes cast so far.
    let target = Math.floor(2 + (l.onOtherSite ? 40 : 170) * rng.next() ** 3);
    if (weekEnd > now) target = Math.round(target * Math.min(1, (now.getTime() - launchedAt.getTime()) / (weekEnd.getTime() - launchedAt.getTime())));
    const voterSet = rng.sample(voters, Math.min(target, voters.length - 10));
    const voteTimes = new Map<number, Date>();
    for (const userId of voterSet) {
      // Most votes land in the launch week (front-loaded), the rest trickle in afterwards.
      const late = weekEnd < now && rng.chance(0.15);
      const at = late ? between(weekEnd, now, rng.next() ** 2) : between(launchedAt, minDate(weekEnd, now), rng.next() ** 1.6);
      voteTimes.set(userId, at);
      act.votes.push({ listing_id: l.id, user_id: userId, created_at: at });
    }
    for (const userId of rng.sample(voterSet, Math.floor(voterSet.length * (0.1 + rng.next() * 0.25)))) {
      act.follows.push({ listing_id: l.id, user_id: userId, created_at: minDate(now, addHours(voteTimes.get(userId)!, rng.next() * 48)) });
    }
    if (l.onOtherSite) continue;

    // Reviews: mostly from voters; a few flagged as spam and some by the owner, which the genuine rating ignores.
    if (rng.chance(0.55)) {
      for (const userId of rng.sample(voterSet.length >= 3 ? voterSet : voters, rng.int(1, 8))) {
        const spam = rng.chance(0.07);
        const rating = spam ? rng.pick([1, 5]) : rng.weighted([1, 2, 3, 4, 5], [5, 8, 17, 35, 35]);
        act.reviews.push({
          listing_id: l.id,
          user_id: userId,
          rating,
          flagged: spam,
          body: spam ? rng.pick(SPAM_REVIEWS) : rng.pick(REVIEW_BODIES[rating]),
          created_at: between(launchedAt, now, rng.next()),
        });
      }
    }
    if (l.ownerId && rng.chance(0.1)) {
      act.reviews.push({ listing_id: l.id, user_id: l.ownerId, rating: 5, flagged: false, body: rng.pick(OWNER_REVIEWS), created_at: addHours(launchedAt, 1) });
    }

    // Daily profile views, peaking on launch day and decaying after.
    const peak = 20 + voterSet.length * 3;
    const base = rng.int(1, 8);
    for (
      let day = new Date(Date.UTC(launchedAt.getUTCFullYear(), launchedAt.getUTCMonth(), launchedAt.getUTCDate())), d = 0;
      day <= today;
      day = addDays(day, 1), d++
    ) {
      const views = Math.round(peak * Math.exp(-d / 9) * (0.7 + 0.6 * rng.next()) + base * rng.next());
      if (views > 0) act.views.push({ listing_id: l.id, day: isoDate(day), views });
    }
  }

  // Upcoming launches collect a few followers and pre-launch views.
  for (const l of listings.filter((x) => x.status === 'scheduled' || x.status === 'awaiting_badge')) {
    for (const userId of rng.sample(voters, rng.int(0, 8)))
      act.follows.push({ listing_id: l.id, user_id: userId, created_at: between(l.createdAt, now, rng.next()) });
    for (let d = 0; d < rng.int(0, 10); d++) act.views.push({ listing_id: l.id, day: isoDate(addDays(today, -d)), views: rng.int(1, 25) });
  }

  // Owner-named alternatives within the same primary category; approved ones are listed first.
  const mainLive = live.filter((l) => !l.onOtherSite);
  for (const l of mainLive) {
    if (!rng.chance(0.4)) continue;
    const peers = mainLive.filter((p) => p.leaf === l.leaf && p.id !== l.id);
    for (const p of rng.sample(peers, rng.int(1, 4))) {
      act.alternatives.push({ listing_id: l.id, alternative_id: p.id, approved: rng.chance(0.5), created_at: between(l.createdAt, now, rng.next()) });
    }
  }

  // Billboard money for about 25 live listings, in cents, at least the $10 minimum.
  for (const l of rng.sample(mainLive, 25)) {
    for (let k = rng.int(1, 3); k > 0; k--) {
      act.billboard.push({
        listing_id: l.id,
        user_id: l.ownerId,
        amount_cents: rng.int(2, 100) * 500,
        currency: 'USD',
        created_at: between(l.launchedAt!, now, rng.next()),
      });
    }
  }
  return act;
}

/** Weekly Domain Rating over 12 weeks per company, each trending up or down, and MRR for about 40%. */
export function planCompanyMetrics(rng: Rng, now: Date, companyIds: number[]) {
  const ratings: Row[] = [];
  const revenue: Row[] = [];
  const week0 = mondayOf(now);
  for (const companyId of companyIds) {
    const start = rng.int(3, 60);
    const slope = -1.5 + rng.next() * 4;
    for (let k = 11; k >= 0; k--) {
      const rating = Math.max(0, Math.min(100, Math.round(start + slope * (11 - k) + (rng.next() - 0.5) * 2)));
      ratings.push({ company_id: companyId, measured_on: isoDate(addDays(week0, -7 * k)), rating });
    }
    if (!rng.chance(0.4)) continue;
    let mrr = rng.int(5, 2000) * 10_000;
    const growth = 1 + rng.next() * 0.15;
    // Demo figures are self-reported: only the worker, reading a maker's own Stripe key, marks a
    // figure verified. The draw stays so the rest of the demo comes out as before.
    rng.chance(0.35);
    const verified = false;
    for (let back = rng.int(3, 6); back >= 1; back--) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
      revenue.push({ company_id: companyId, month: isoDate(month), mrr_cents: Math.round(mrr / 100) * 100, currency: 'USD', verified });
      mrr *= growth;
    }
  }
  return { ratings, revenue };
}

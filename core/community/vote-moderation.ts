import { transaction, type Sql } from '../../sql/db.ts';
import { recordAudit } from '../audit.ts';

/**
 * The site team's view of a week's votes and its one remedy: discounting votes (kept, published
 * with the reason in the week's integrity report, counted by no ranking) and restoring them. Each
 * change recomputes the counters and, for finished weeks, the awards (reaward_week).
 */
export interface VoteCluster {
  slug: string;
  kind: 'network' | 'accounts' | 'no_visit';
  votes: number;
  new_accounts: number;
  unvisited: number;
  first_vote: Date;
  last_vote: Date;
  accounts_created_within_s: number;
  vote_ids: string[];
}

/** Clusters among the counted votes on a week's launches (suspicious_vote_clusters), largest first. */
export async function suspiciousClusters(sql: Sql, siteId: number, week: string): Promise<VoteCluster[]> {
  return sql<VoteCluster[]>`
    select l.slug, c.kind, c.votes, c.new_accounts, c.unvisited, c.first_vote, c.last_vote,
           extract(epoch from c.accounts_created_within)::int as accounts_created_within_s, c.vote_ids::text[] as vote_ids
    from suspicious_vote_clusters(${siteId}, ${week}::date) c join listings l on l.id = c.listing_id`;
}

export interface VoteChange {
  /** Votes changed, per listing slug. */
  changed: { slug: string; votes: number }[];
  /** Ids given that were not votes of this site, or already in the asked state. */
  unchanged: string[];
}

/** Discounts (reason given) or restores (reason null) the votes of this site with the given ids. */
export async function setVotesDiscounted(sql: Sql, siteId: number, ids: string[], reason: string | null, actor: string): Promise<VoteChange> {
  return transaction(sql, async (tx) => {
    const rows = await tx<{ id: string; listing_id: string; slug: string; week: string | null }[]>`
      update votes v set discounted_at = ${reason === null ? null : tx`now()`}, discount_reason = ${reason}, discounted_by = ${reason === null ? null : actor}
      from listings l
      where v.id = any (${ids}::bigint[]) and l.id = v.listing_id and l.site_id = ${siteId}
        and (v.discounted_at is null) = ${reason !== null}
      returning v.id::text, v.listing_id::text, l.slug, to_char(l.launch_week, 'YYYY-MM-DD') as week`;
    const bySlug = new Map<string, string[]>();
    for (const r of rows) bySlug.set(r.slug, [...(bySlug.get(r.slug) ?? []), r.id]);
    for (const [slug, voteIds] of bySlug)
      await recordAudit(tx, {
        actor,
        action: reason === null ? 'votes.restore' : 'votes.discount',
        target: `listing:${slug}`,
        before: { counted: reason !== null, vote_ids: voteIds.map(Number) },
        after: { counted: reason === null, vote_ids: voteIds.map(Number), reason },
      });
    const weeks = [...new Set(rows.map((r) => r.week).filter((w): w is string => w !== null))];
    for (const week of weeks) await tx`select reaward_week(${siteId}, ${week}::date)`;
    if (!weeks.length && rows.length) await tx`select refresh_listing_stats()`;
    if (rows.length) await tx`select directory_changed()`;
    const done = new Set(rows.map((r) => r.id));
    return {
      changed: [...bySlug].map(([slug, v]) => ({ slug, votes: v.length })),
      unchanged: ids.filter((id) => !done.has(id)),
    };
  });
}

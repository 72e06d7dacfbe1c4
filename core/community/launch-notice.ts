// "Notify me": following a listing before it launches. The follow is the same row as a live
// listing's follow, so update mail reaches the person afterwards too; at launch each follower gets
// one mail (go_live runs once per launch: it moves the listing out of the queue in the same transaction).
import type { Sql } from '../../sql/db.ts';
import { enqueueMail } from '../mail/outbox.ts';

export type NoticeOutcome = 'ok' | 'not_upcoming';

/** Follows a scheduled or awaiting-badge listing (idempotent); not_upcoming for any other status. */
export async function followUpcoming(sql: Sql, listingId: number, userId: string): Promise<NoticeOutcome> {
  return sql.begin(async (tx) => {
    const rows = await tx`
      insert into follows (listing_id, user_id)
      select l.id, ${userId}::bigint from listings l where l.id = ${listingId} and l.status in ('scheduled', 'awaiting_badge')
      on conflict (listing_id, user_id) do update set unsubscribed_at = null
      returning listing_id`;
    return rows.length ? 'ok' : 'not_upcoming';
  }) as Promise<NoticeOutcome>;
}

export async function unfollowUpcoming(sql: Sql, listingId: number, userId: string): Promise<void> {
  await sql`delete from follows where listing_id = ${listingId} and user_id = ${userId}`;
}

export async function isFollowing(sql: Sql, listingId: number, userId: string): Promise<boolean> {
  const [row] = await sql`select 1 from follows where listing_id = ${listingId} and user_id = ${userId} and unsubscribed_at is null`;
  return Boolean(row);
}

/** Inside go_live's transaction: one mail to each follower saying the listing is live. */
export async function mailFollowersAtLaunch(tx: Sql, listingId: number): Promise<number> {
  const fans = await tx<{ email: string; name: string; slug: string; site_url: string; site_name: string }[]>`
    select u.email, l.name, l.slug, s.url as site_url, s.name as site_name
    from follows f join users u on u.id = f.user_id join listings l on l.id = f.listing_id join sites s on s.id = l.site_id
    where f.listing_id = ${listingId} and f.unsubscribed_at is null order by u.id`;
  for (const f of fans) {
    await enqueueMail(tx, {
      to: f.email,
      kind: 'listing_launched',
      subject: `${f.name} launched on ${f.site_name}`.slice(0, 300),
      text: `${f.name} is live on ${f.site_name} this week: ${f.site_url}/listings/${f.slug}\n\nYou get this because you asked to be told when it launches.`,
    });
  }
  return fans.length;
}

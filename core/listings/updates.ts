// post_listing_update and the follower mail behind it: the update is stored and the notify job
// enqueued in one transaction; the job mails each follower once per update (update_notifications'
// primary key) and at most once a day per listing, with an unsubscribe link that works without
// signing in.
import { transaction, type Sql } from '../../sql/db.ts';
import { enqueue, JOBS } from '../jobs/index.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hashSecret, newSecret, SECRET_PREFIX } from '../auth/secrets.ts';
import { ownListingId, type ListingOwner } from './own-listing.ts';

export interface PostedUpdate {
  id: number;
  listing_id: number;
  title: string;
  body: string;
  created_at: string;
  followers: number;
  published: boolean;
}

export async function postListingUpdate(owner: ListingOwner, id: number, input: { title: string; body: string }): Promise<PostedUpdate> {
  return transaction(owner.sql, async (t) => {
    const listingId = await ownListingId(t, owner, id, { forUpdate: true });
    const [u] = await t<PostedUpdate[]>`
      insert into listing_updates (listing_id, title, body, user_id) values (${listingId}, ${input.title}, ${input.body}, ${owner.userId}::bigint)
      returning id::int, listing_id::int, title, body, to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at`;
    const [l] = await t<{ live: boolean; followers: number }[]>`
      select l.status = 'live' as live,
             (select count(*)::int from follows f where f.listing_id = l.id and f.unsubscribed_at is null) as followers
      from listings l where l.id = ${listingId}`;
    // Followers hear of updates to public listings only; an unpublished listing's update waits on its profile.
    if (l.live) {
      await enqueue(t, JOBS.notify_followers, { update_id: u.id });
      await t`select directory_changed()`;
    }
    return { ...u, followers: l.live ? l.followers : 0, published: l.live };
  });
}

/** A follower gets at most one update mail a day per listing; later updates wait for the next one, together. */
export const UPDATE_MAIL_INTERVAL_HOURS = 24;

/**
 * notify_followers: mails every follower not yet told (and not unsubscribed) about one update. A
 * follower mailed about this listing within the interval is not mailed now: the job comes back
 * when their interval ends, and that mail then carries every update they were not yet told of.
 */
export async function notifyFollowers(sql: Sql, updateId: number, site: { url: string }): Promise<number> {
  return transaction(sql, async (t) => {
    const [u] = await t<{ listing_id: number; name: string; slug: string; site_url: string; site_name: string }[]>`
      select u.listing_id::int, l.name, l.slug, s.url as site_url, s.name as site_name
      from listing_updates u join listings l on l.id = u.listing_id join sites s on s.id = l.site_id where u.id = ${updateId}`;
    if (!u) return 0;
    // One job at a time per listing: a redelivered job, or another update's, waits here and then finds everyone told.
    await t`select pg_advisory_xact_lock(7301913, ${u.listing_id}::int)`;
    const todo = await t<{ user_id: string; email: string; next_at: Date | null }[]>`
      select f.user_id::text, us.email,
             (select max(n.created_at) + make_interval(hours => ${UPDATE_MAIL_INTERVAL_HOURS}) from update_notifications n
              where n.listing_id = f.listing_id and n.user_id = f.user_id and n.mail_id is not null
              having max(n.created_at) + make_interval(hours => ${UPDATE_MAIL_INTERVAL_HOURS}) > now()) as next_at
      from follows f join users us on us.id = f.user_id
      where f.listing_id = ${u.listing_id} and f.unsubscribed_at is null
        and not exists (select 1 from update_notifications n where n.update_id = ${updateId} and n.user_id = f.user_id)
      order by f.user_id`;
    const base = site.url || u.site_url;
    const profile = `${u.site_url}/listings/${u.slug}`;
    let mailed = 0;
    const waits = todo.flatMap((f) => (f.next_at ? [f.next_at.getTime()] : []));
    const later = waits.length ? new Date(Math.min(...waits)) : null;
    for (const f of todo) {
      if (f.next_at) continue;
      // Every update of the listing this follower was not told of (this one included), oldest first.
      const updates = await t<{ id: number; title: string; body: string }[]>`
        select lu.id::int, lu.title, lu.body from listing_updates lu join follows f on f.listing_id = lu.listing_id and f.user_id = ${f.user_id}::bigint
        where lu.listing_id = ${u.listing_id} and (lu.id = ${updateId} or lu.created_at >= f.created_at)
          and not exists (select 1 from update_notifications n where n.update_id = lu.id and n.user_id = ${f.user_id}::bigint)
        order by lu.created_at, lu.id`;
      const secret = newSecret(SECRET_PREFIX.unsubscribe);
      const one = updates.length === 1;
      const mailId = await enqueueMail(t, {
        to: f.email,
        kind: 'listing_update',
        subject: (one ? `${u.name}: ${updates[0].title}` : `${u.name}: ${updates.length} updates`).slice(0, 300),
        text:
          `${u.name} posted ${one ? 'an update' : `${updates.length} updates`} on ${u.site_name}.\n\n` +
          updates.map((x) => `${x.title}\n\n${x.body}`).join('\n\n---\n\n') +
          `\n\n${profile}\n\n` +
          `You get this because you follow ${u.name} (at most one mail a day). Stop these mails: ${base}/unsubscribe/${secret}`,
      });
      for (const [i, x] of updates.entries()) {
        // Each row needs its own unsubscribe hash; the mail carries the first one's secret.
        const hash = i === 0 ? hashSecret(secret) : hashSecret(newSecret(SECRET_PREFIX.unsubscribe));
        await t`insert into update_notifications (update_id, user_id, listing_id, mail_id, unsubscribe_hash)
                values (${x.id}, ${f.user_id}::bigint, ${u.listing_id}, ${mailId}::bigint, ${hash})`;
      }
      mailed++;
    }
    if (later) await enqueue(t, JOBS.notify_followers, { update_id: updateId }, { runAt: later, key: `notify_followers:${updateId}:${later.toISOString()}` });
    return mailed;
  });
}

export interface UnsubscribeTarget {
  listing: string;
  email: string;
  done: boolean;
}

export async function unsubscribeTarget(sql: Sql, secret: string): Promise<UnsubscribeTarget | null> {
  const [row] = await sql<UnsubscribeTarget[]>`
    select l.name as listing, us.email, f.unsubscribed_at is not null as done
    from update_notifications n join listings l on l.id = n.listing_id join users us on us.id = n.user_id
    left join follows f on f.listing_id = n.listing_id and f.user_id = n.user_id
    where n.unsubscribe_hash = ${hashSecret(secret)}`;
  return row ?? null;
}

/** The unsubscribe button's POST: no more update mail for that listing to that person. */
export async function unsubscribe(sql: Sql, secret: string): Promise<UnsubscribeTarget | null> {
  await sql`
    update follows f set unsubscribed_at = now() from update_notifications n
    where n.unsubscribe_hash = ${hashSecret(secret)} and f.listing_id = n.listing_id and f.user_id = n.user_id and f.unsubscribed_at is null`;
  return unsubscribeTarget(sql, secret);
}

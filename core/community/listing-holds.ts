import { transaction, type Sql } from '../../sql/db.ts';
import { recordAudit } from '../audit.ts';
import { enqueueMail } from '../mail/outbox.ts';

/**
 * The site team takes a listing off every public surface by giving it the status hidden: every
 * public read (pages, API, MCP, feeds, sitemap) shows live listings only. The owner sees the reason
 * in get_my_listing (status_reason hidden_by_site_team, status_detail) and by mail; restoring puts
 * the status it had back.
 */
const stateOf = async (sql: Sql, id: number) => (await sql`select l.status, l.status_reason, l.status_detail from listings l where l.id = ${id}`)[0] ?? null;

const ownersOf = (sql: Sql, id: number) =>
  sql<{ email: string }[]>`
    select distinct u.email from listings l join users u
      on u.id = l.owner_user_id or u.id in (select co.user_id from company_owners co where co.company_id = l.company_id)
    where l.id = ${id}`;

export type HoldOutcome = 'done' | 'not_found' | 'already';

export async function hideListing(sql: Sql, siteId: number, slug: string, reason: string, actor: string): Promise<HoldOutcome> {
  return transaction(sql, async (tx): Promise<HoldOutcome> => {
    const [l] = await tx<{ id: number; name: string; site_name: string }[]>`
      select l.id::int, l.name, s.name as site_name from listings l join sites s on s.id = l.site_id
      where l.site_id = ${siteId} and l.slug = ${slug} for update of l`;
    if (!l) return 'not_found';
    const before = await stateOf(tx, l.id);
    if (before?.status === 'hidden') return 'already';
    await tx`insert into listing_holds (listing_id, previous_status, previous_status_reason, previous_status_detail, reason, actor)
             values (${l.id}, ${before!.status}, ${before!.status_reason}, ${before!.status_detail}, ${reason}, ${actor})
             on conflict (listing_id) do update set previous_status = excluded.previous_status, previous_status_reason = excluded.previous_status_reason,
               previous_status_detail = excluded.previous_status_detail, reason = excluded.reason, actor = excluded.actor, held_at = now()`;
    await tx`update listings set status = 'hidden', status_reason = 'hidden_by_site_team', status_detail = ${reason}, updated_at = now() where id = ${l.id}`;
    await recordAudit(tx, { actor, action: 'listing.hide', target: `listing:${slug}`, before, after: await stateOf(tx, l.id) });
    for (const o of await ownersOf(tx, l.id))
      await enqueueMail(tx, {
        to: o.email,
        kind: 'listing_hidden',
        subject: `${l.name} is hidden on ${l.site_name}`,
        text: `The site team took ${l.name} off ${l.site_name}'s public pages, API and feeds.\n\nReason: ${reason}\n\nYou still see and edit it in your account. Reply to this mail to ask the team to look again.`,
      });
    await tx`select directory_changed()`;
    return 'done';
  });
}

export async function restoreListing(sql: Sql, siteId: number, slug: string, actor: string): Promise<HoldOutcome> {
  return transaction(sql, async (tx): Promise<HoldOutcome> => {
    const [l] = await tx<{ id: number; name: string; site_name: string }[]>`
      select l.id::int, l.name, s.name as site_name from listings l join sites s on s.id = l.site_id
      where l.site_id = ${siteId} and l.slug = ${slug} for update of l`;
    if (!l) return 'not_found';
    const [hold] = await tx`select previous_status, previous_status_reason, previous_status_detail from listing_holds where listing_id = ${l.id}`;
    const before = await stateOf(tx, l.id);
    if (!hold || before?.status !== 'hidden') return 'already';
    await tx`update listings set status = ${hold.previous_status}, status_reason = ${hold.previous_status_reason},
             status_detail = ${hold.previous_status_detail}, updated_at = now() where id = ${l.id}`;
    await tx`delete from listing_holds where listing_id = ${l.id}`;
    await recordAudit(tx, { actor, action: 'listing.restore', target: `listing:${slug}`, before, after: await stateOf(tx, l.id) });
    for (const o of await ownersOf(tx, l.id))
      await enqueueMail(tx, {
        to: o.email,
        kind: 'listing_restored',
        subject: `${l.name} is back on ${l.site_name}`,
        text: `The site team restored ${l.name}: it is shown on ${l.site_name} again as before.`,
      });
    await tx`select directory_changed()`;
    return 'done';
  });
}

/** Listings as they were submitted, newest first: what the site team looks over. */
export async function newListings(sql: Sql, siteId: number, limit: number) {
  return sql<{ slug: string; name: string; url: string; status: string; owner: string | null; created_at: Date; submitted: boolean }[]>`
    select l.slug, l.name, l.url, l.status, u.email as owner, l.created_at,
           exists (select 1 from drafts d where d.listing_id = l.id and d.submitted_at is not null) as submitted
    from listings l left join users u on u.id = l.owner_user_id
    where l.site_id = ${siteId}
    order by l.created_at desc, l.id desc limit ${limit}`;
}

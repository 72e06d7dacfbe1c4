// Operator tasks made by fulfilment (done_for_you): listed and closed by the operator CLI.
import type { Sql } from '../../sql/db.ts';

export interface TaskRow {
  id: string;
  kind: string;
  status: string;
  notes: string | null;
  order_number: string | null;
  listing_slug: string | null;
  listing_url: string | null;
  created_at: Date;
  done_at: Date | null;
}

export function listTasks(sql: Sql, opts: { all: boolean }): Promise<TaskRow[]> {
  return sql<TaskRow[]>`
    select t.id::text, t.kind, t.status, t.notes, o.number as order_number, l.slug as listing_slug, l.url as listing_url, t.created_at, t.done_at
    from operator_tasks t
    left join order_lines ol on ol.id = t.order_line_id left join orders o on o.id = ol.order_id
    left join listings l on l.id = t.listing_id
    where ${opts.all ? sql`true` : sql`t.status = 'open'`}
    order by t.created_at, t.id`;
}

/** Marks an open task done; false when there is no such open task. */
export async function closeTask(sql: Sql, id: string, note: string | null): Promise<boolean> {
  const rows = await sql`update operator_tasks set status = 'done', done_at = now(), done_note = ${note} where id = ${id} and status = 'open' returning 1`;
  return rows.length > 0;
}

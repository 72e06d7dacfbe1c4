import type { Sql } from '../sql/db.ts';

export interface AuditEntry {
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}
export interface AuditRow extends AuditEntry {
  id: number;
  at: Date;
}

/** Records an operator's change in the caller's transaction, so the audit and the change commit together. */
export async function recordAudit(sql: Sql, e: AuditEntry): Promise<void> {
  await sql`
    insert into operator_audit (actor, action, target, before, after)
    values (${e.actor}, ${e.action}, ${e.target}, ${sql.json((e.before ?? null) as never)}::jsonb, ${sql.json((e.after ?? null) as never)}::jsonb)`;
}

export async function listAudit(sql: Sql, opts: { limit: number; target?: string }): Promise<AuditRow[]> {
  return sql<AuditRow[]>`
    select id::int, actor, action, target, before, after, at from operator_audit
    where ${opts.target ?? null}::text is null or target = ${opts.target ?? null}
    order by at desc, id desc limit ${opts.limit}`;
}

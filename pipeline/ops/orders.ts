import { parseArgs } from 'node:util';
import { DomainError } from '../../core/errors/index.ts';
import { refundOrder } from '../../core/orders/refund.ts';
import { orderRow } from '../../core/orders/store.ts';
import { refundPayment } from '../../core/payments/stripe-provider.ts';
import { closeTask, listTasks } from '../../core/orders/tasks.ts';
import { recordAudit } from '../../core/audit.ts';
import { EXIT, isoTime, OpsFailure, UsageError, type OpsIo } from './io.ts';

/** order refund <number>: refunds an order (operator side; the money goes back through the provider's dashboard). */
export async function orderCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, number, ...rest] = args;
  if (sub !== 'refund') throw new UsageError('order takes a subcommand: order refund <number>');
  if (!number || rest.length) throw new UsageError('order refund takes one order number');
  try {
    const row = await orderRow(io.sql, { number: number.toUpperCase() });
    // A Stripe payment is refunded at Stripe first (its charge.refunded webhook then finds the order refunded).
    const stripe = io.config?.orders.stripe;
    if (row && row.provider === 'stripe' && row.status !== 'refunded' && row.provider_payment_id) {
      if (!stripe) throw new OpsFailure(`order ${row.number} was paid with Stripe: set STRIPE_SECRET_KEY so the money is returned too`);
      const refundId = await refundPayment(stripe, row.provider_payment_id, row.number);
      io.out(`Stripe refund ${refundId} for payment ${row.provider_payment_id}`);
    }
    const r = await refundOrder(io.sql, { number: number.toUpperCase() }, 'operator');
    await recordAudit(io.sql, {
      actor: io.actor ?? 'operator',
      action: 'order.refund',
      target: `order:${r.number}`,
      before: row ? { status: row.status } : null,
      after: { status: 'refunded', already: r.already, lines: r.lines },
    });
    io.out(r.already ? `order ${r.number} was already refunded` : `order ${r.number} refunded`);
    for (const l of r.lines) io.out(`  line ${l.position} ${l.product}: ${l.reversed ? 'reversed' : 'NOT reversed'}: ${l.note}`);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof DomainError) throw new OpsFailure(e.message);
    throw e;
  }
}

/** tasks [--all] | tasks done <id> [--note TEXT]: the site team's work from orders (done_for_you). */
export async function tasksCommand(args: string[], io: OpsIo): Promise<number> {
  if (args[0] === 'done') {
    const { values, positionals } = parseArgs({ args: args.slice(1), options: { note: { type: 'string' } }, allowPositionals: true, strict: true });
    const id = positionals[0];
    if (!id || !/^\d{1,18}$/.test(id) || positionals.length > 1) throw new UsageError('tasks done takes one task id');
    const state = async () => (await io.sql`select id::text, kind, status, done_at, done_note from operator_tasks where id = ${id}`)[0] ?? null;
    const before = await state();
    const closed = await closeTask(io.sql, id, values.note ?? null);
    if (!closed) throw new OpsFailure(`no open task #${id}`);
    await recordAudit(io.sql, { actor: io.actor ?? 'operator', action: 'task.done', target: `task:${id}`, before, after: await state() });
    io.out(`task #${id} done`);
    return EXIT.ok;
  }
  const { values } = parseArgs({ args, options: { all: { type: 'boolean' } }, strict: true });
  const tasks = await listTasks(io.sql, { all: values.all ?? false });
  if (!tasks.length) {
    io.out(values.all ? 'no tasks' : 'no open tasks');
    return EXIT.ok;
  }
  for (const t of tasks) {
    io.out(
      `#${t.id}  ${t.kind}  ${t.status}  order ${t.order_number ?? '-'}  listing ${t.listing_slug ?? '-'} (${t.listing_url ?? '-'})  opened ${isoTime(t.created_at)}${t.done_at ? `  closed ${isoTime(t.done_at)}` : ''}`,
    );
    io.out(`    notes: ${t.notes ?? '(none)'}`);
  }
  return EXIT.ok;
}

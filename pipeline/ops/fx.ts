import { parseArgs } from 'node:util';
import { recordAudit } from '../../core/audit.ts';
import { transaction } from '../../sql/db.ts';
import { EXIT, UsageError, type OpsIo } from './io.ts';

/** fx set CURRENCY RATE [--on DATE] / fx show: the rates the revenue board converts to USD with. */
export async function fxCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'show') {
    const rows = await io.sql<{ currency: string; valid_from: string; usd_per_unit: string }[]>`
      select distinct on (currency) currency, to_char(valid_from, 'YYYY-MM-DD') as valid_from, usd_per_unit::text from fx_rates
      order by currency, valid_from desc`;
    if (!rows.length) io.out('no exchange rates: revenue in other currencies than USD ranks last');
    for (const r of rows) io.out(`${r.currency} ${r.usd_per_unit} USD from ${r.valid_from}`);
    return EXIT.ok;
  }
  if (sub !== 'set') throw new UsageError(`fx takes set or show, got ${sub ? `"${sub}"` : 'nothing'}`);
  const { values, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: { on: { type: 'string' } } });
  const [currency, rate] = positionals;
  if (positionals.length !== 2) throw new UsageError('fx set takes CURRENCY RATE, e.g. fx set EUR 1.08');
  const code = currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || code === 'USD') throw new UsageError(`CURRENCY must be a three-letter code other than USD, got "${currency}"`);
  if (!/^\d{1,9}(\.\d{1,8})?$/.test(rate) || Number(rate) <= 0) throw new UsageError(`RATE must be a positive number (USD per unit), got "${rate}"`);
  const on = values.on ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(on) || Number.isNaN(Date.parse(on))) throw new UsageError(`--on must be a date YYYY-MM-DD, got "${on}"`);
  await transaction(io.sql, async (tx) => {
    await tx`insert into fx_rates (currency, valid_from, usd_per_unit) values (${code}, ${on}::date, ${rate}::numeric)
             on conflict (currency, valid_from) do update set usd_per_unit = excluded.usd_per_unit`;
    await recordAudit(tx, {
      actor: io.actor ?? 'operator',
      action: 'fx.set',
      target: `fx:${code}`,
      before: null,
      after: { valid_from: on, usd_per_unit: rate },
    });
  });
  io.out(`${code}: 1 ${code} = ${rate} USD from ${on}`);
  return EXIT.ok;
}

import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { recordAudit } from '../../core/audit.ts';
import { importDomainRatings } from '../../core/domain-rating/import.ts';
import { EXIT, OpsFailure, UsageError, type OpsIo } from './io.ts';

/** dr import FILE.csv: Domain Ratings (domain, rating, measured_on) from a CSV; all rows or none. */
export async function domainRatingCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'import') throw new UsageError(`dr takes import, got ${sub ? `"${sub}"` : 'nothing'}`);
  const { positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError('dr import takes one CSV file (columns domain, rating, measured_on)');
  let csv: string;
  try {
    csv = await readFile(positionals[0], 'utf8');
  } catch (e) {
    throw new OpsFailure(`cannot read ${positionals[0]}: ${(e as Error).message}`);
  }
  const r = await importDomainRatings(io.sql, csv);
  if (r.errors.length) {
    for (const e of r.errors.slice(0, 20)) io.err(`line ${e.line}: ${e.message}`);
    throw new OpsFailure(`${r.errors.length} bad rows in ${positionals[0]}; nothing was imported`);
  }
  await recordAudit(io.sql, {
    actor: io.actor ?? 'operator',
    action: 'dr.import',
    target: `file:${positionals[0]}`,
    before: null,
    after: { rows: r.rows, imported: r.imported },
  });
  io.out(
    `imported ${r.imported} of ${r.rows} ratings${r.unknownDomains.length ? `; no company for ${r.unknownDomains.length} domains: ${r.unknownDomains.slice(0, 10).join(', ')}` : ''}`,
  );
  return EXIT.ok;
}

import { parseArgs } from 'node:util';
import { listAudit } from '../../core/audit.ts';
import { EXIT, isoTime, type OpsIo } from './io.ts';
import { wholeNumber } from './site-settings.ts';

/** audit: the newest operator changes first, each with before and after. */
export async function auditCommand(args: string[], io: OpsIo): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { limit: { type: 'string' }, target: { type: 'string' } } });
  const limit = values.limit === undefined ? 20 : wholeNumber(values.limit, '--limit', 1, 500);
  for (const r of await listAudit(io.sql, { limit, target: values.target })) {
    io.out(`${isoTime(r.at)}\t${r.actor}\t${r.action}\t${r.target}`);
    io.out(`  before: ${JSON.stringify(r.before)}`);
    io.out(`  after:  ${JSON.stringify(r.after)}`);
  }
  return EXIT.ok;
}

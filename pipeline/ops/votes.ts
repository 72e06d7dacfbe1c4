import { parseArgs } from 'node:util';
import { setVotesDiscounted, suspiciousClusters } from '../../core/community/vote-moderation.ts';
import { resolveWeek } from '../../core/launch-weeks.ts';
import { DomainError } from '../../core/errors/index.ts';
import { EXIT, isoTime, UsageError, type OpsIo } from './io.ts';
import { reasonOf } from './reviews.ts';
import { thisSite } from './site-settings.ts';

const KIND: Record<string, string> = {
  network: 'one network, one burst',
  accounts: 'accounts created together',
  no_visit: 'no prior visit, one burst',
};

function voteIds(raw: string | undefined): string[] {
  if (!raw) throw new UsageError('--ids is required: vote ids separated by commas (see votes suspicious)');
  const ids = raw.split(',').map((s) => s.trim());
  if (ids.length > 10_000 || ids.some((id) => !/^\d{1,15}$/.test(id) || Number(id) < 1))
    throw new UsageError('--ids must be up to 10000 positive whole numbers separated by commas');
  return [...new Set(ids)];
}

const duration = (s: number) => (s < 3600 ? `${Math.round(s / 60)} min` : s < 172_800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} days`);

/** votes suspicious --week W | votes discount --ids I --reason R | votes restore --ids I */
export async function votesCommand(args: string[], io: OpsIo): Promise<number> {
  const [sub, ...rest] = args;
  const site = await thisSite(io.sql);
  const actor = io.actor ?? 'operator';
  if (sub === 'suspicious') {
    const { values } = parseArgs({ args: rest, strict: true, options: { week: { type: 'string' } } });
    if (!values.week) throw new UsageError('--week is required: this, last or a date YYYY-MM-DD');
    let week: string;
    try {
      week = (await resolveWeek(io.sql, site.id, values.week, 'query')).week;
    } catch (e) {
      if (e instanceof DomainError) throw new UsageError(`--week: ${e.message}`);
      throw e;
    }
    const clusters = await suspiciousClusters(io.sql, site.id, week);
    if (!clusters.length) {
      io.out(`No suspicious clusters among the votes on the launches of the week of ${week}.`);
      return EXIT.ok;
    }
    io.out(`${clusters.length} suspicious ${clusters.length === 1 ? 'cluster' : 'clusters'} among the votes on the launches of the week of ${week}:`);
    for (const c of clusters) {
      io.out(
        `${c.slug}: ${c.votes} votes, ${KIND[c.kind]}, ${isoTime(c.first_vote)} to ${isoTime(c.last_vote)}; ` +
          `${c.new_accounts} from accounts under a day old, ${c.unvisited} without a prior visit, accounts created within ${duration(c.accounts_created_within_s)}`,
      );
      io.out(`    ids ${c.vote_ids.join(',')}`);
    }
    return EXIT.ok;
  }
  if (sub === 'discount' || sub === 'restore') {
    const { values } = parseArgs({
      args: rest,
      strict: true,
      options: { ids: { type: 'string' }, ...(sub === 'discount' ? { reason: { type: 'string' } } : {}) },
    });
    const ids = voteIds(values.ids);
    const reason = sub === 'discount' ? reasonOf((values as { reason?: string }).reason) : null;
    const r = await setVotesDiscounted(io.sql, site.id, ids, reason, actor);
    for (const c of r.changed) io.out(`${c.slug}: ${c.votes} ${c.votes === 1 ? 'vote' : 'votes'} ${sub === 'discount' ? 'discounted' : 'restored'}`);
    if (r.unchanged.length)
      io.out(
        `${r.unchanged.length} ${r.unchanged.length === 1 ? 'id' : 'ids'} unchanged (no such vote here, or already ${sub === 'discount' ? 'discounted' : 'counted'})`,
      );
    if (!r.changed.length) return EXIT.failed;
    io.out('Rankings, boards, trending and the awards of finished weeks are recomputed.');
    return EXIT.ok;
  }
  throw new UsageError(sub ? `unknown votes command "${sub}"` : 'votes needs a command: suspicious, discount or restore');
}

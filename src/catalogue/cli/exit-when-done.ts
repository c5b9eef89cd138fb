/**
 * Ends an operator's run with `code` once its work is done. The process exits by itself when its
 * connections are closed; one that stays open holds it. A Redis Cluster client closed while it
 * was still learning the slot map of a cluster just restarted held a finished seed for its whole
 * 300 s budget in a fault run. So, past `graceMs`, it exits anyway, saying so.
 */
export function exitWhenDone(code: number, say: (line: string) => void, graceMs = 10_000): void {
  process.exitCode = code;
  setTimeout(() => {
    say(`the run is done, but a connection stayed open ${graceMs / 1000} s after it: exiting`);
    process.exit(code);
  }, graceMs).unref();
}

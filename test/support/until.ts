export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `condition` until it holds or `timeoutMs` passes, and says which. For waiting on an event
 * the test cannot observe directly (a background replay, a breaker closing); the deadline is an
 * upper bound that a healthy run never comes near, not a guess at how long the work takes.
 */
export async function until(condition: () => Promise<boolean>, timeoutMs = 10_000, everyMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(everyMs);
  }
}

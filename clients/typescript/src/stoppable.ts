/** Resolves after `ms`, or at once when `signal` aborts; the caller looks at the signal after. */
export const sleepUnless = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** Resolves when `settled` does, or at once when `signal` aborts; the caller looks at the signal after. */
export async function settledUnless(settled: Promise<unknown>, signal: AbortSignal): Promise<void> {
  let stop = () => undefined as void;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
    signal.addEventListener('abort', stop, { once: true });
  });
  await Promise.race([settled, stopped]).finally(() => signal.removeEventListener('abort', stop));
}

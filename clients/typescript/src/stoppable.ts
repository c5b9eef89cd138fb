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

/**
 * True when `settled` does (resolved or not); false when `signal` aborts first, or `ms` pass
 * first when given. Its timer and listener go either way; the caller looks at the signal after.
 */
export function settledWithin(settled: Promise<unknown>, signal: AbortSignal, ms?: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(value);
    };
    const stop = () => done(false);
    const timer = ms === undefined ? undefined : setTimeout(stop, ms);
    signal.addEventListener('abort', stop, { once: true });
    settled.then(
      () => done(true),
      () => done(true),
    );
  });
}

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

/** True when `settled` does within `ms`; false when `ms` pass first or `signal` aborts. Its timer and listener go either way. */
export function settledWithin(settled: Promise<unknown>, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(value);
    };
    const stop = () => done(false);
    const timer = setTimeout(stop, ms);
    signal.addEventListener('abort', stop, { once: true });
    settled.then(
      () => done(true),
      () => done(true),
    );
  });
}

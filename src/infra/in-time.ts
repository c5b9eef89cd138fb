/**
 * A call's outcome if it comes within `ms`, else what `late` gives (or throws) when the time is up.
 * The call is not stopped: it goes on for whoever else waits on it, and its outcome, a failure
 * included, is then heard by no one.
 */
export function inTime<T, L>(call: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
  }).then(late);
  return Promise.race([call, expired]).finally(() => clearTimeout(timer));
}

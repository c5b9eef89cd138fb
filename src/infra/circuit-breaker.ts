/** Thrown at once, without calling the backend, while the breaker is open. */
export class CircuitOpenError extends Error {
  constructor(readonly backend: string) {
    super(`${backend} circuit open: not called until a probe succeeds`);
    this.name = 'CircuitOpenError';
  }
}

export interface CircuitBreakerOptions {
  /** Named in errors and state changes. */
  backend: string;
  /** Consecutive failed calls that open the breaker. */
  failureThreshold: number;
  /** How long the breaker stays open before a probe, and between failed probes. */
  openMs: number;
  /** A cheap call that proves the backend answers again (PING). */
  probe: () => Promise<unknown>;
  onOpen?: (reason: unknown) => void;
  onClose?: () => void;
  now?: () => number;
}

export interface CircuitBreaker {
  /** Runs the call while closed; rejects with CircuitOpenError at once while open. */
  run<T>(call: () => Promise<T>): Promise<T>;
  readonly open: boolean;
  /** When the backend last answered a call or a probe (epoch ms), or -Infinity. */
  readonly lastSuccessAt: number;
}

/**
 * A backend that accepts connections and never answers makes every call wait for its
 * timeout, and callers pile up behind it. After `failureThreshold` failures in a row the
 * breaker opens: calls fail at once, for their caller to fall back, and a background probe
 * runs every `openMs`; the first probe that succeeds closes the breaker again. Probing in the
 * background means no request ever waits on a backend that is known to be gone.
 */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const { backend, failureThreshold, openMs, probe, onOpen, onClose, now = Date.now } = options;
  let failures = 0;
  let open = false;
  let lastSuccessAt = -Infinity;

  function succeeded(): void {
    failures = 0;
    lastSuccessAt = now();
  }

  function scheduleProbe(): void {
    const timer = setTimeout(() => {
      probe().then(
        () => {
          succeeded();
          open = false;
          onClose?.();
        },
        () => scheduleProbe(),
      );
    }, openMs);
    timer.unref();
  }

  function failed(reason: unknown): void {
    failures++;
    if (open || failures < failureThreshold) return;
    open = true;
    onOpen?.(reason);
    scheduleProbe();
  }

  return {
    async run<T>(call: () => Promise<T>): Promise<T> {
      if (open) throw new CircuitOpenError(backend);
      try {
        const result = await call();
        succeeded();
        return result;
      } catch (err) {
        failed(err);
        throw err;
      }
    },
    get open() {
      return open;
    },
    get lastSuccessAt() {
      return lastSuccessAt;
    },
  };
}

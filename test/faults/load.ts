/** One request's outcome, stamped with when it started (ms since the load began). */
export interface Outcome {
  at: number;
  ms: number;
  status: number;
  /** A network failure (refused, reset, timeout), not an HTTP status. */
  error?: string;
  /** The start of an error answer's message, to tell which layer refused. */
  message?: string;
  /** What was asked, and of which target (the last one tried). */
  path?: string;
  target?: string;
}

export interface LoadOptions {
  /** API base URLs; requests go round-robin, and `retryElsewhere` retries on the next one. */
  targets: string[];
  keys: string[];
  paths: string[];
  /** Requests started per second, whatever the answers: a bounded, open-loop load. */
  rate: number;
  timeoutMs: number;
  /** A front that retries idempotent GETs once on another target after a connection failure (not a timeout). */
  retryElsewhere?: boolean;
}

/** The `message` of an error answer's JSON body, or the body itself when it is not one. */
function messageOf(body: string): string {
  try {
    const { message } = JSON.parse(body) as { message?: unknown };
    return typeof message === 'string' ? message : '';
  } catch {
    return body;
  }
}

/**
 * A bounded open-loop load generator on 127.0.0.1: `rate` requests a second from many keys (each
 * within its tier), round-robin over the targets, every request with its own timeout. It keeps
 * every outcome so phases can be cut afterwards.
 */
export function startLoad({ targets, keys, paths, rate, timeoutMs, retryElsewhere = false }: LoadOptions) {
  const outcomes: Outcome[] = [];
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let n = 0;
  let stopped = false;

  async function once(target: string, path: string, key: string): Promise<Omit<Outcome, 'at' | 'ms'>> {
    try {
      const res = await fetch(`${target}${path}`, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(timeoutMs) });
      const body = await res.text();
      if (res.ok) return { status: res.status, path, target };
      return { status: res.status, message: messageOf(body).slice(0, 60), path, target };
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      return { status: 0, error: cause ?? (err as Error).name, path, target };
    }
  }

  async function fire(i: number): Promise<void> {
    const at = performance.now() - started;
    const path = paths[i % paths.length]!;
    const key = keys[i % keys.length]!;
    let result = await once(targets[i % targets.length]!, path, key);
    // A front retries what never reached a server (refused, reset), not what a server was too slow
    // to answer: that is the client's own timeout, and it counts as a failure.
    if (result.error && result.error !== 'TimeoutError' && retryElsewhere && targets.length > 1) {
      result = await once(targets[(i + 1) % targets.length]!, path, key);
    }
    outcomes.push({ at, ms: performance.now() - started - at, ...result });
  }

  const timer = setInterval(() => {
    if (stopped) return;
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (n < due) {
      const p = fire(n++);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  }, 5);

  return {
    now: () => performance.now() - started,
    async stop(): Promise<Outcome[]> {
      stopped = true;
      clearInterval(timer);
      await Promise.all(inFlight);
      return outcomes.sort((a, b) => a.at - b.at);
    },
  };
}

export interface PhaseStats {
  requests: number;
  failed: number;
  /** Failures by kind: an HTTP status or a network error name. */
  kinds: Record<string, number>;
  /** Error answers by status and the start of their message. */
  messages: Record<string, number>;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Outcomes started in [fromMs, toMs): counts, failures (not 2xx, or 429 when `limitedIsFailure`) and latency. */
export function phase(outcomes: Outcome[], fromMs: number, toMs: number): PhaseStats {
  const inPhase = outcomes.filter((o) => o.at >= fromMs && o.at < toMs);
  const kinds: Record<string, number> = {};
  const messages: Record<string, number> = {};
  for (const o of inPhase) {
    if (o.status >= 200 && o.status < 300) continue;
    const kind = o.error ?? String(o.status);
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    if (o.message !== undefined) messages[`${o.status} ${o.message}`] = (messages[`${o.status} ${o.message}`] ?? 0) + 1;
  }
  const ms = inPhase.map((o) => o.ms).sort((a, b) => a - b);
  return {
    requests: inPhase.length,
    failed: Object.values(kinds).reduce((a, b) => a + b, 0),
    kinds,
    messages,
    p50: Math.round(percentile(ms, 50)),
    p99: Math.round(percentile(ms, 99)),
  };
}

// Latencies of the last minute decide the deadline: the 99th percentile of at most this many.
const WINDOW_MS = 60_000;
const SAMPLES = 2048;
const PERCENTILE = 0.99;
const RECOMPUTE_MS = 1000;

export interface LatencyDeadlineOptions {
  /** The deadline is never shorter than this. */
  floorMs: number;
  /**
   * Nor longer than this: during a fault the calls that waited on a stopped node are the slow
   * percentile, and a deadline learned from them would come too late to help the next ones.
   */
  ceilingMs: number;
  now?: () => number;
}

export interface LatencyDeadline {
  /** One call's latency, as it answered in time. */
  record(ms: number): void;
  /** How long a call may take before it counts as late: recomputed at most once a second. */
  current(): number;
}

/**
 * How long to wait for a backend before acting as if it will not answer (hedged-reads.ts sends the
 * read again; admission decides without Redis): a high percentile of what its calls took in the
 * last minute, between a floor and a ceiling. Kept in two fixed arrays, so recording costs nothing.
 */
export function createLatencyDeadline({ floorMs, ceilingMs, now = Date.now }: LatencyDeadlineOptions): LatencyDeadline {
  const at = new Float64Array(SAMPLES);
  const took = new Float64Array(SAMPLES);
  let next = 0;
  let deadline = floorMs;
  let computedAt = -Infinity;
  return {
    record(ms) {
      at[next] = now();
      took[next] = ms;
      next = (next + 1) % SAMPLES;
    },
    current() {
      const t = now();
      if (t - computedAt >= RECOMPUTE_MS) {
        computedAt = t;
        const recent: number[] = [];
        for (let i = 0; i < SAMPLES; i++) if (at[i]! > 0 && t - at[i]! < WINDOW_MS) recent.push(took[i]!);
        recent.sort((a, b) => a - b);
        const high = recent.length === 0 ? 0 : recent[Math.min(recent.length - 1, Math.floor(recent.length * PERCENTILE))]!;
        deadline = Math.min(ceilingMs, Math.max(floorMs, high));
      }
      return deadline;
    },
  };
}

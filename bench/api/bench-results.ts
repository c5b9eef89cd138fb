import type { ColdLatency } from './cold-latency.js';
import type { FixedRateResult } from './fixed-rate.js';
import type { Measurement, RequestFiles } from './measure.js';
import type { RoundTripAudit } from './redis-stats.js';
import type { BenchOptions, Scenario } from './options.js';

/** What one benchmark run measured: what the report, its tables, targets and chart are made from. */
export interface SeriesPoint {
  kind?: string;
  page?: number;
  docs: number;
  target: string;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  rps: number;
  errors: number;
  /** Sequential requests, each after emptying Elasticsearch's request and query caches. */
  cold: ColdLatency;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  loadAverage: { before: number[]; after: number[] };
  options: BenchOptions;
  compareSha: string | null;
  docs: number;
  scenarios: { scenario: Scenario; files: RequestFiles; measurements: Record<string, Measurement>; roundTrips: Record<string, RoundTripAudit> }[];
  koa: Measurement | null;
  fixedRate: (FixedRateResult & { scenario: Scenario; target: string })[];
  sizeSeries: SeriesPoint[];
  depthSeries: SeriesPoint[];
}

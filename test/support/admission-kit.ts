import { type Admission, createAdmission, createUsageReader } from '../../src/access/domain/admission.js';
import type { RateLimitConfig } from '../../src/config.js';
import { type CircuitBreaker, CircuitOpenError } from '../../src/infra/circuit-breaker.js';
import { createMetrics } from '../../src/infra/metrics.js';
import { captureLogs } from './log-capture.js';
import { inMemoryAdmissionStore } from './in-memory-admission-store.js';
import { createWithdrawnKeys } from '../../src/access/domain/withdrawn-keys.js';

export const GRACE_MS = 60_000;

/**
 * A breaker the test steers: closed, it passes calls through and records when the store last
 * answered; `open` makes every call fail at once as an open breaker does.
 */
export interface SteeredBreaker extends CircuitBreaker {
  open: boolean;
  lastSuccessAt: number;
}

function steeredBreaker(): SteeredBreaker {
  const breaker: SteeredBreaker = {
    open: false,
    lastSuccessAt: -Infinity,
    async run(call) {
      if (breaker.open) throw new CircuitOpenError('redis');
      const answer = await call();
      breaker.lastSuccessAt = Date.now();
      return answer;
    },
  };
  return breaker;
}

/** Admission and usage over the in-memory store, with the breaker, logs and metrics to read. */
export function admissionKit(tiers: Record<string, number> = { free: 3, premium: 5 }) {
  const store = inMemoryAdmissionStore();
  const breaker = steeredBreaker();
  const logs = captureLogs('info');
  const metrics = createMetrics();
  const config: RateLimitConfig = { tiers, windowSeconds: 3600, authFailureLimit: 10, authFailureWindowSeconds: 60, authGraceMs: GRACE_MS };
  const withdrawn = createWithdrawnKeys();
  const options = { store, breaker, config, logger: logs.logger, metrics, withdrawn };
  return {
    store,
    breaker,
    logs,
    withdrawn,
    admit: createAdmission(options),
    usage: createUsageReader(options),
    counter: async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values.reduce((sum, v) => sum + v.value, 0),
  };
}

export const outcomes = (admissions: Admission[]) => admissions.map((a) => a.outcome);

export async function admitTimes(admit: (key: string) => Promise<Admission>, key: string, n: number): Promise<Admission[]> {
  const answers: Admission[] = [];
  for (let i = 0; i < n; i++) answers.push(await admit(key));
  return answers;
}

/** What a store throws while Redis does not answer. */
export const redisDown = () => new Error('connect ECONNREFUSED 127.0.0.1:6379');

/** The error `call` fails with; it must fail. */
export async function refusal(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

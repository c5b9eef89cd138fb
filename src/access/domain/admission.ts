import { randomBytes } from 'node:crypto';
import type { RateLimitConfig } from '../../config.js';
import { BackendUnavailable, TierNotServed } from '../../errors.js';
import { type CircuitBreaker, CircuitOpenError } from '../../infra/circuit-breaker.js';
import { inTime } from '../../infra/in-time.js';
import type { Logger } from '../../infra/logger.js';
import { createLatencyDeadline } from '../../infra/latency-deadline.js';
import { type Metrics, timed } from '../../infra/metrics.js';
import type { AdmissionReply, AdmissionStore } from '../store/admission-store.js';
import { type KeyLocation, locateKey } from '../store/authenticate-lua.js';
import type { WithdrawnKeys } from './withdrawn-keys.js';
import { createFallbackLimiter } from './fallback-limiter.js';
import { type Quota, secondsUntilReset } from '../quota.js';

/** Who a request acts for, once its key is known. */
export interface Principal {
  keyId: string;
  accountId: string;
  tier: string;
}

/**
 * `repeated`: a refusal Redis gave the key moments ago, given again without asking (see
 * SPENT_REPEAT_MS).
 */
export type Admission =
  { outcome: 'invalid' } | { outcome: 'allowed' | 'limited'; principal: Principal; quota: Quota; source: 'redis' | 'fallback' | 'repeated' };

/** A read of a key's quota that admits nothing: its numbers, or how long until reads are allowed again. */
export type UsageReading =
  | { outcome: 'invalid' }
  | { outcome: 'read'; principal: Principal; quota: Quota }
  | { outcome: 'capped'; principal: Principal; retryAfterSeconds: number };

const RECENT_KEYS_MAX = 10_000;

// How long Redis's refusal of a spent account is given again to the key it refused, without
// asking Redis, never past the reset it reported (the sliding window gives nothing back before it).
// A spent key's flood then costs one script a second per process, not one per request (1.007
// scripts a refusal and 7 % of Redis's core at 2,000 a second, bench/results/spent-flood). What
// Redis would say otherwise of that key, revoked or its account upgraded, is seen at most this
// late. Per key, not per account: a refusal repeated to every key of the account had kept a key
// revoked meanwhile on 429 for as long as another key flooded (review).
const SPENT_REPEAT_MS = 1_000;

/** Admissions the fallback made for one key while Redis did not answer, not yet in its log. */
interface Owed {
  location: KeyLocation;
  count: number;
  /** Ids of replays that were sent but not answered: each is sent again under its own id. */
  unanswered: string[];
}

// Keys verified elsewhere at once, across keys: past this, a key Redis has not verified waits for
// its master like any other. Bounds what a flood of made-up keys can ask of the other nodes while
// a master is down.
const REPLICA_VERIFICATIONS_MAX = 32;
// How long a key the other copies did not know is refused without asking them again.
const UNKNOWN_ELSEWHERE_MS = 10_000;

// How long a request waits for Redis before the fallback decides: the 99th
// percentile of admissions in the last minute (a few milliseconds), between these bounds. A hung
// master (a stopped process, a frozen VM) answers nothing and fails nothing until the command
// timeout (REDIS_TIMEOUT_MS, 1 s), and its replica takes over only after cluster-node-timeout.
const LATE_FLOOR_MS = 100;
const LATE_CEILING_MS = 250;
const LATE = Symbol('late');
const late = (): typeof LATE => LATE;

/**
 * Says once per tier that the process has no limit for it, naming the variable to fix: every
 * request of such an account meets it, and a line each would flood the log.
 */
function unservedTiers(logger: Logger): (tier: string, keyId: string) => void {
  const told = new Set<string>();
  return (tier, keyId) => {
    if (told.has(tier)) return;
    told.add(tier);
    logger.error('account tier has no configured limit: its keys get 503 until RATE_LIMIT_TIERS names it', { keyId, tier });
  };
}

/** A known key's reply (status 1, 2 or 4) in the domain's terms; null for an unknown key; TierNotServed for a tier without a limit here. */
function readReply(
  reply: AdmissionReply,
  location: KeyLocation,
  config: RateLimitConfig,
  unserved: (tier: string, keyId: string) => void,
): { principal: Principal; quota: Quota } | null {
  const [status, keyId, tier, limit, remaining, resetMs, nowMs] = reply;
  if (status === 0) return null;
  if (status === 3) {
    unserved(tier!, keyId!);
    throw new TierNotServed("This key's tier is not served by this instance of the API; please retry shortly");
  }
  return {
    principal: { keyId: keyId!, accountId: location.accountId, tier: tier! },
    quota: { tier: tier!, limit: limit!, remaining: remaining!, windowSeconds: config.windowSeconds, resetMs: resetMs!, nowMs: nowMs! },
  };
}

export interface AdmissionOptions {
  store: AdmissionStore;
  /** Shared by every Redis call on the request path; open, admission falls back at once. */
  breaker: CircuitBreaker;
  config: RateLimitConfig;
  logger: Logger;
  metrics: Metrics;
  /** Keys withdrawn since Redis verified them (withdrawn-keys.ts): the fallback does not admit them. */
  withdrawn?: Pick<WithdrawnKeys, 'isWithdrawn'>;
}

/**
 * Authenticates a key and makes the rate-limit decision in one Redis round trip (one
 * EVALSHA). When Redis does not answer (or its breaker is open, so it is not even asked), a
 * key that Redis verified no more than `authGraceMs` before Redis last answered is admitted
 * by the in-process fallback limiter. The grace is counted back from Redis's last answer, not
 * from now, so an outage does not shrink it: the keys in use when Redis stopped keep working.
 * Any other key (one this process never saw, as after a restart, or one past the grace) is
 * verified on the other copies of its slot, which a Redis Cluster has while a master is down or
 * hung: known there, the fallback admits it too; unknown there, or no copy answers, it fails closed
 * with 503 (never 403: a replica may not have a key created a moment ago). A key withdrawn
 * (revoked, rotated out, its account disabled) is not admitted by the fallback once this process
 * has read of it in the withdrawal log (`withdrawn`, read every second by withdrawal-watch.ts), so
 * one withdrawn more than that before Redis stopped answering never comes back. No key waits for a Redis that is merely slow to answer
 * (a hung master) past the admission deadline either: the fallback admits it then (see
 * admitWhileLate).
 */
export function createAdmission({ store, breaker, config, logger, metrics, withdrawn }: AdmissionOptions) {
  const recentlyVerified = new Map<string, { principal: Principal; at: number }>();
  // What Redis last reported of each account's quota: during an outage an account gets at most
  // what was left of it (until that reset), so a failover does not hand an account at its limit
  // a fresh quota. Past that reset, the in-process limiter takes over.
  const lastQuota = new Map<string, { remaining: number; resetMs: number }>();
  const fallback = createFallbackLimiter(config);
  // Keys (by hash) Redis refused as spent: until when the refusal is given again and when the
  // reset it reported comes, on this process's monotonic clock (not Redis's, which may disagree,
  // nor the wall clock, which may be stepped), and the refusal, whose quota's `nowMs` was Redis's
  // clock when the call went out at `at`.
  const spent = new Map<string, { untilMs: number; resetAtMs: number; at: number; principal: Principal; quota: Quota }>();
  // Requests the fallback admitted, per key, not yet in Redis's log: charged to the account once
  // Redis answers again, so an outage's admissions still count against the window.
  const owed = new Map<string, Owed>();
  let settling = false;
  let degraded = false;
  const deadline = createLatencyDeadline({ floorMs: LATE_FLOOR_MS, ceilingMs: LATE_CEILING_MS });
  const unserved = unservedTiers(logger);

  function owe(location: KeyLocation): void {
    const entry = owed.get(location.hash) ?? { location, count: 0, unanswered: [] };
    entry.count += 1;
    owed.set(location.hash, entry);
    if (owed.size > RECENT_KEYS_MAX) owed.delete(owed.keys().next().value as string);
  }

  // Replays one key's owed admissions through the admission script. Each is taken off the count
  // before it is sent, so two replays of the same key (the background one and a request's own)
  // never charge one admission twice. One whose answer did not come is owed again under the same
  // id: if it was charged after all (the answer, not the command, was lost), Redis knows the id
  // and charges nothing the second time.
  async function replay(entry: Owed): Promise<void> {
    while (entry.count > 0) {
      entry.count -= 1;
      const id = entry.unanswered.pop() ?? randomBytes(9).toString('base64url');
      let reply: AdmissionReply;
      try {
        reply = await breaker.run(() => store.replay(entry.location, id));
      } catch (err) {
        entry.count += 1;
        entry.unanswered.push(id);
        throw err;
      }
      // Served, and over the quota after all (an outage's in-process quota, or other instances'
      // requests): counted, so what a fault gave away is seen.
      if (reply[0] === 2) metrics.rateLimitOverAdmitted.inc();
    }
    if (owed.get(entry.location.hash) === entry && entry.count === 0) owed.delete(entry.location.hash);
  }

  // Replays every owed admission in the background; each is recorded at the time it is replayed,
  // which errs towards charging a little late, never less.
  async function settle(): Promise<void> {
    if (settling) return;
    settling = true;
    try {
      for (const entry of [...owed.values()]) await replay(entry);
    } catch {
      // Redis failed again: what is left stays owed until it answers.
    } finally {
      settling = false;
    }
  }

  function verified(hash: string, principal: Principal): void {
    recentlyVerified.delete(hash);
    recentlyVerified.set(hash, { principal, at: Date.now() });
    if (recentlyVerified.size > RECENT_KEYS_MAX) {
      recentlyVerified.delete(recentlyVerified.keys().next().value as string);
    }
  }

  function remember(hash: string, principal: Principal, quota: Quota): void {
    verified(hash, principal);
    lastQuota.delete(principal.accountId);
    lastQuota.set(principal.accountId, { remaining: quota.remaining, resetMs: quota.resetMs });
    if (lastQuota.size > RECENT_KEYS_MAX) lastQuota.delete(lastQuota.keys().next().value as string);
  }

  // Admissions of each account sent to Redis and not yet answered: each may yet be admitted there.
  const asking = new Map<string, number>();
  function ask(accountId: string, by: number): void {
    const now = (asking.get(accountId) ?? 0) + by;
    if (now > 0) asking.set(accountId, now);
    else asking.delete(accountId);
  }

  /**
   * The decision from what Redis last reported of the account. In an outage, until that report's
   * reset; past it, null (the in-process limiter decides). When Redis is only late it still
   * answers, so a report does not expire: the sliding window only gives back, so what it left is
   * a floor on what is left now, less this process's requests Redis has not answered yet (any of
   * them may be admitted there). Past its reset, a fresh in-process quota had admitted a spent
   * account's whole limit again while Redis was late (review).
   */
  function fromLastQuota(principal: Principal, late: boolean): Admission | null {
    const last = lastQuota.get(principal.accountId);
    const nowMs = Date.now();
    if (!last || (!late && nowMs >= last.resetMs)) return null;
    // Late, this request's own call is among those asked (a key late Redis verified is counted).
    const unanswered = late ? Math.max(0, (asking.get(principal.accountId) ?? 0) - 1) : 0;
    const allowed = last.remaining - unanswered > 0;
    if (allowed) last.remaining -= 1;
    const limit = config.tiers[principal.tier] ?? 0;
    const quota: Quota = {
      tier: principal.tier,
      limit,
      remaining: last.remaining,
      windowSeconds: config.windowSeconds,
      resetMs: Math.max(last.resetMs, nowMs),
      nowMs,
    };
    return { outcome: allowed ? 'allowed' : 'limited', principal, quota, source: 'fallback' };
  }

  // One verification elsewhere per key at a time, however many of its requests wait for it.
  const elsewhere = new Map<string, Promise<Principal | null>>();
  // Keys the other copies did not know, for a while: a made-up key (a valid checksum costs
  // nothing) asked again is refused at once, not verified on every node again.
  const unknownElsewhere = new Map<string, number>();

  /**
   * The key as the copies of its slot know it (verifyOnAnyCopy), for a key this process has not
   * verified recently (one a restarted process meets during a failover, or one past the grace):
   * what the master would say, up to replication lag (milliseconds). Null when no copy knows the
   * key, or none answers, or there is none to ask.
   */
  function verifyElsewhere(location: KeyLocation): Promise<Principal | null> {
    const pending = elsewhere.get(location.hash);
    if (pending) return pending;
    if (!store.replicas || elsewhere.size >= REPLICA_VERIFICATIONS_MAX) return Promise.resolve(null);
    const refusedAt = unknownElsewhere.get(location.hash);
    if (refusedAt !== undefined && Date.now() - refusedAt < UNKNOWN_ELSEWHERE_MS) return Promise.resolve(null);
    const asked = timed(metrics.redisDuration, 'verify', () => store.verifyOnAnyCopy(location))
      .then(([status, keyId, tier]) => {
        if (status !== 1) {
          unknownElsewhere.set(location.hash, Date.now());
          if (unknownElsewhere.size > RECENT_KEYS_MAX) unknownElsewhere.delete(unknownElsewhere.keys().next().value as string);
          return null;
        }
        const principal = { keyId: keyId!, accountId: location.accountId, tier: tier! };
        verified(location.hash, principal);
        return principal;
      })
      .catch(() => null)
      .finally(() => elsewhere.delete(location.hash));
    elsewhere.set(location.hash, asked);
    return asked;
  }

  async function admitWithoutRedis(location: KeyLocation, err: unknown): Promise<Admission> {
    const admission = await fallbackAdmission(location, err);
    metrics.rateLimitFallbacks.inc();
    if (admission.outcome === 'allowed') owe(location);
    return admission;
  }

  /**
   * Redis has not answered a recently verified key by the deadline: the fallback admits it now
   * rather than the request waiting out the command timeout. If Redis's answer still comes and
   * admits, it has charged the request; otherwise the fallback's admission is owed, as in an
   * outage. Null when the fallback would not admit (the key's verification is past the grace, or
   * its quota looks spent): then Redis decides, so no request is refused that Redis then charges.
   */
  async function admitWhileLate(location: KeyLocation, call: Promise<AdmissionReply>): Promise<Admission | null> {
    let admission: Admission;
    try {
      admission = await fallbackAdmission(location, null);
    } catch {
      return null;
    }
    if (admission.outcome !== 'allowed') return null;
    metrics.rateLimitFallbacks.inc();
    call.then(
      (reply) => {
        // The master's own "no" overrides what the fallback took: the key is no longer trusted.
        if (reply[0] === 0) recentlyVerified.delete(location.hash);
        else if (reply[0] !== 1) owe(location);
      },
      () => owe(location),
    );
    return admission;
  }

  /**
   * The in-process decision for a key Redis verified recently, or another copy verifies now;
   * BackendUnavailable for any other. `err` is Redis's failure, or null when Redis is only late
   * (then no failure is counted or logged: it may yet answer).
   */
  async function fallbackAdmission(location: KeyLocation, err: unknown): Promise<Admission> {
    const reason = err instanceof Error ? err.message : String(err);
    if (err !== null && !(err instanceof CircuitOpenError)) metrics.redisFailures.inc({ operation: 'admit' });
    if (err !== null && !degraded) {
      degraded = true;
      logger.warn('redis unavailable: admission falls back to the in-process limiter', {
        reason,
        graceMs: config.authGraceMs,
      });
    }
    const recent = recentlyVerified.get(location.hash);
    const trusted =
      recent !== undefined &&
      breaker.lastSuccessAt - recent.at <= config.authGraceMs &&
      !withdrawn?.isWithdrawn(location.hash, recent.principal.accountId, recent.at);
    const principal = trusted ? recent.principal : await verifyElsewhere(location);
    if (!principal) throw new BackendUnavailable('redis', 'Authentication is temporarily unavailable, please retry shortly');
    const seeded = fromLastQuota(principal, err === null);
    if (seeded) return seeded;
    const { allowed, quota } = await fallback(principal.accountId, principal.tier);
    return { outcome: allowed ? 'allowed' : 'limited', principal, quota, source: 'fallback' };
  }

  /** The account of a key Redis verified for this process, unless Redis last reported it spent; asking nothing. */
  function accountWithRoom(apiKey: string): string | null {
    const location = locateKey(apiKey);
    const accountId = (location && recentlyVerified.get(location.hash)?.principal.accountId) ?? null;
    if (accountId === null) return null;
    const last = lastQuota.get(accountId);
    return last !== undefined && last.remaining === 0 && Date.now() < last.resetMs ? null : accountId;
  }

  // The admission under way of each key this process has not verified, by hash: the first request
  // of a key new to the process asks Redis alone (see firstAnswer).
  const firstAsked = new Map<string, Promise<void>>();

  /**
   * Settles once the admission under way of a key this process has not verified yet is decided
   * (whatever the decision); null when none is. A request of the same key that waits for it learns
   * its account first, so its line is checked before its quota is counted (accessGuard): a burst of
   * a key new to the process had its line's refusals counted against its hour.
   */
  function firstAnswer(apiKey: string): Promise<void> | null {
    const location = locateKey(apiKey);
    return (location && firstAsked.get(location.hash)) ?? null;
  }

  return Object.assign(admit, { accountWithRoom, firstAnswer });

  async function admit(apiKey: string): Promise<Admission> {
    const location = locateKey(apiKey);
    if (!location) return { outcome: 'invalid' };
    if (recentlyVerified.has(location.hash) || firstAsked.has(location.hash)) return decide(location);
    const decided = decide(location);
    // A turn after the decision: the request that asked goes on first (to its lane, fair-share.ts),
    // and only then do the others keep their places; first, they had filled the line before it.
    const aTurnLater = () => new Promise<void>((resolve) => setImmediate(resolve));
    firstAsked.set(
      location.hash,
      decided.then(aTurnLater, aTurnLater).finally(() => firstAsked.delete(location.hash)),
    );
    return decided;
  }

  /**
   * Keeps Redis's answer to a key if it refused it as spent, from when the call was sent: Redis
   * answered after that, so the reset counted from then comes no later than the true one.
   */
  function noteAnswer(hash: string, answer: Admission, sentAt: number): void {
    spent.delete(hash);
    if (answer.outcome !== 'limited') return;
    const { principal, quota } = answer;
    const resetAtMs = sentAt + quota.resetMs - quota.nowMs;
    spent.set(hash, { untilMs: Math.min(sentAt + SPENT_REPEAT_MS, resetAtMs), resetAtMs, at: sentAt, principal, quota });
    if (spent.size > RECENT_KEYS_MAX) spent.delete(spent.keys().next().value as string);
  }

  /**
   * Redis's refusal of this key given again while it holds; else null. When it lapses before its
   * reset, one request asks Redis and the key's others are given it again meanwhile (for up to
   * another SPENT_REPEAT_MS): a burst at the moment it lapsed had all gone to Redis (42 scripts for
   * a 20-connection flood in 2.5 s).
   */
  function repeatedRefusal(location: KeyLocation): Admission | null {
    const kept = spent.get(location.hash);
    if (kept === undefined) return null;
    const localMs = performance.now();
    if (localMs >= kept.untilMs) {
      if (localMs >= kept.resetAtMs) spent.delete(location.hash);
      else kept.untilMs = Math.min(localMs + SPENT_REPEAT_MS, kept.resetAtMs);
      return null;
    }
    const { principal, quota } = kept;
    return { outcome: 'limited', principal, quota: { ...quota, nowMs: quota.nowMs + (localMs - kept.at) }, source: 'repeated' };
  }

  async function decide(location: KeyLocation): Promise<Admission> {
    const repeated = repeatedRefusal(location);
    if (repeated) return repeated;
    // What this key owes from an outage reaches Redis before its next admission is decided there,
    // so that decision counts it (the background replay may not have come to this key yet).
    const owing = owed.get(location.hash);
    if (owing !== undefined && !breaker.open) await inTime(replay(owing), deadline.current(), late).catch(() => undefined);
    const sentAt = performance.now();
    // Counted for a key Redis verified only: a made-up key naming an account (its id is the key's
    // visible prefix) must not hold that account's late admissions back.
    const counted = recentlyVerified.has(location.hash);
    if (counted) ask(location.accountId, 1);
    const call = breaker.run(() => timed(metrics.redisDuration, 'admit', () => store.admit(location)));
    if (counted) {
      call.then(
        () => ask(location.accountId, -1),
        () => ask(location.accountId, -1),
      );
    }
    // Every answer counts toward the deadline, late ones too: counting only those in time would
    // hold it below itself for ever.
    call.then(
      () => deadline.record(performance.now() - sentAt),
      () => undefined,
    );
    let reply: AdmissionReply;
    try {
      const answer = await inTime(call, deadline.current(), late);
      if (answer === LATE) {
        const decided = await admitWhileLate(location, call);
        if (decided) return decided;
        reply = await call;
      } else {
        reply = answer;
      }
    } catch (err) {
      return admitWithoutRedis(location, err);
    }
    if (degraded) {
      degraded = false;
      logger.info('redis answering again: admission back on the shared limiter');
    }
    const known = readReply(reply, location, config, unserved);
    if (!known) {
      // Revoked, or never was: no longer one this process has served, nor one to refuse as spent.
      recentlyVerified.delete(location.hash);
      spent.delete(location.hash);
      return { outcome: 'invalid' };
    }
    remember(location.hash, known.principal, known.quota);
    if (owed.size > 0) void settle();
    const answer: Admission = { outcome: reply[0] === 1 ? 'allowed' : 'limited', ...known, source: 'redis' };
    noteAnswer(location.hash, answer, sentAt);
    return answer;
  }
}

export type Admit = ReturnType<typeof createAdmission>;

/**
 * Reads a key's quota through the same script, admitting nothing (GET /v1/usage). Reads have a
 * small cap of their own per key. Without Redis there is nothing true to report: 503.
 */
export function createUsageReader({ store, breaker, config, logger, metrics }: AdmissionOptions) {
  const unserved = unservedTiers(logger);
  return async function readUsage(apiKey: string): Promise<UsageReading> {
    const location = locateKey(apiKey);
    if (!location) return { outcome: 'invalid' };
    let reply: AdmissionReply;
    try {
      reply = await breaker.run(() => timed(metrics.redisDuration, 'usage', () => store.peek(location)));
    } catch (err) {
      if (!(err instanceof CircuitOpenError)) metrics.redisFailures.inc({ operation: 'usage' });
      throw new BackendUnavailable('redis', 'Usage is temporarily unavailable, please retry shortly');
    }
    const known = readReply(reply, location, config, unserved);
    if (!known) return { outcome: 'invalid' };
    if (reply[0] === 4) return { outcome: 'capped', principal: known.principal, retryAfterSeconds: secondsUntilReset(known.quota) };
    return { outcome: 'read', ...known };
  };
}

import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { ReplyError } from 'ioredis';
import type { RedisClient } from '../../infra/redis.js';
import { messageOf } from './index-admin.js';

/** Who holds the lock, stored as the key's JSON value. */
export interface LockHolder {
  command: string;
  host: string;
  pid: number;
  since: string;
  token: string;
  /** Its process's PID namespace (Linux's `/proc/self/ns/pid`), where the system has them. */
  pidns?: string;
}

/**
 * This process's PID namespace, or undefined where there is none to read. Containers sharing the
 * host's network share its hostname too (Docker's `--network host`), each with pids of its own: a
 * pid there says nothing of a process here (helper-97 took over a live import's lock so, and
 * removed its index).
 */
function ownPidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}
const PID_NAMESPACE = ownPidNamespace();

export interface CatalogueLock {
  readonly key: string;
  readonly holder: LockHolder;
  /** Aborted when a renewal finds the lock gone or taken: the run must not switch the alias then. */
  readonly lost: AbortSignal;
  /**
   * Throws unless the lock is still ours; extends it on success. While Redis does not answer it
   * waits, within the lease, and `interrupt` ends that wait with its reason.
   */
  confirm(interrupt?: AbortSignal): Promise<void>;
  /** Deletes the key only if it is still ours. */
  release(): Promise<void>;
}

/**
 * The lock, its confirmations ended by `interrupt` when they wait for a silent Redis: a Ctrl-C
 * then stops the run at once, not at the lease's end.
 */
export function heedingInterrupts(lock: CatalogueLock, interrupt: AbortSignal): CatalogueLock {
  return { ...lock, confirm: () => lock.confirm(interrupt) };
}

export interface LockOptions {
  ttlMs?: number;
  renewEveryMs?: number;
  /** Pause between two asks of a confirmation Redis did not answer. */
  retryEveryMs?: number;
  /** Told once when Redis stops answering the lock's renewals, and once when it answers again. */
  onSilence?: (line: string) => void;
}

// Compare-and-act in one step, so a run whose lock expired never touches its successor's.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export const DEFAULT_LOCK_TTL_MS = 30_000;

/** One lock per alias: runs on different aliases touch different indices and need not wait for each other. */
export function lockKey(alias: string): string {
  return `wpc:catalogue-lock:${alias}`;
}

export class LockHeldError extends Error {
  constructor(
    readonly key: string,
    readonly holder: LockHolder | string,
  ) {
    super(`another catalogue run holds ${key}: ${describeHolder(holder)}`);
    this.name = 'LockHeldError';
  }
}

/**
 * The run no longer holds its lock. The message says only that: what the run had done by then
 * (switched the alias or not, written some changes) is said by the run, which knows.
 */
export class LockLostError extends Error {
  constructor(
    readonly key: string,
    message = `the catalogue lock ${key} expired or was taken over`,
  ) {
    super(message);
    this.name = 'LockLostError';
  }
}

/**
 * Redis gave no answer to the lock's renewals for a whole lease, or refused them: the lock may
 * have expired and another run taken it, so this run can no longer say it holds it.
 */
export class LockUnconfirmedError extends LockLostError {
  constructor(key: string, why: string) {
    super(key, `could not confirm the catalogue lock ${key}: ${why}`);
    this.name = 'LockUnconfirmedError';
  }
}

// Redis's answers that say it cannot serve the command just now (a replica promoted, a data set
// loading, a script running, a cluster moving slots), not that the command is wrong.
const TRANSIENT_REPLY = /^(READONLY|LOADING|BUSY|TRYAGAIN|CLUSTERDOWN|MASTERDOWN|MOVED|ASK)\b/;

/**
 * Whether a failed renewal says nothing of the lock: no answer (a command timeout, a connection
 * closed or being remade, a cluster with no node reachable) or a transient refusal. Any other
 * answer (NOPERM for an ACL user without EVAL, a script error) will not change by asking again.
 */
export function isSilence(error: unknown): boolean {
  return !(error instanceof ReplyError) || TRANSIENT_REPLY.test((error as Error).message);
}

// One abort listener per signal, however many confirmations wait on it at once (every loader
// confirms the lock before its write): a listener each piled up with --concurrency, and Node 20
// warned of a leak (MaxListenersExceededWarning) from 11.
const waiting = new WeakMap<AbortSignal, Set<(reason: Error) => void>>();

/** The signal's one listener, rejecting every wait registered with it. */
function listenOnce(signal: AbortSignal): Set<(reason: Error) => void> {
  const waiters = new Set<(reason: Error) => void>();
  signal.addEventListener('abort', () => waiters.forEach((reject) => reject(signal.reason as Error)), { once: true });
  waiting.set(signal, waiters);
  return waiters;
}

/** `work`, or the signal's reason as soon as it is aborted. */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  // An abort reason is an Error here (Interrupted, LockLostError), as AbortSignal.abort() makes one.
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  const waiters = waiting.get(signal) ?? listenOnce(signal);
  return new Promise<T>((resolve, reject) => {
    waiters.add(reject);
    work.then(resolve, reject).finally(() => waiters.delete(reject));
  });
}

/** Seconds of silence, as a range when what the lock knows of it spans more than half a second. */
function silence(atLeastMs: number, atMostMs: number): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  return atMostMs - atLeastMs < 500 ? `${seconds(atLeastMs)} s` : `between ${seconds(atLeastMs)} and ${seconds(atMostMs)} s`;
}

export function describeHolder(holder: LockHolder | string): string {
  if (typeof holder === 'string') return holder;
  return `${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.since})`;
}

function parseHolder(raw: string): LockHolder | string {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof value.command === 'string' && typeof value.host === 'string' && typeof value.pid === 'number') return value as LockHolder;
  } catch {
    // Not ours to interpret: shown as it is.
  }
  return raw;
}

/**
 * Held by a process of this host, and of this PID namespace, that no longer exists, such as one
 * killed with SIGKILL. A holder of another namespace, or that names none where this system has
 * them (a build before), is never taken for gone: the lock's TTL frees it once it stops renewing.
 */
export function isAbandoned(holder: LockHolder | string, pidns: string | undefined = PID_NAMESPACE): boolean {
  if (typeof holder === 'string' || holder.host !== hostname() || holder.pidns !== pidns) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The current holder, or null when the lock is free. */
export async function readLockHolder(redis: RedisClient, alias: string): Promise<LockHolder | string | null> {
  const raw = await redis.get(lockKey(alias));
  return raw === null ? null : parseHolder(raw);
}

/**
 * `SET key holder NX PX ttl`, renewed every `renewEveryMs` while held. An abandoned lock is
 * taken over at once rather than after its TTL; `tookOver` names its holder.
 */
export async function acquireCatalogueLock(
  redis: RedisClient,
  alias: string,
  command: string,
  { ttlMs = DEFAULT_LOCK_TTL_MS, renewEveryMs = Math.floor(ttlMs / 3), retryEveryMs = 250, onSilence = () => undefined }: LockOptions = {},
): Promise<CatalogueLock & { tookOver: LockHolder | null }> {
  const key = lockKey(alias);
  const holder: LockHolder = {
    command,
    host: hostname(),
    pid: process.pid,
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
    ...(PID_NAMESPACE === undefined ? {} : { pidns: PID_NAMESPACE }),
  };
  const value = JSON.stringify(holder);
  let tookOver: LockHolder | null = null;
  for (let attempt = 1; (await redis.set(key, value, 'PX', ttlMs, 'NX')) !== 'OK'; attempt++) {
    const raw = await redis.get(key);
    // Released between the SET and the GET: try again, a few times at most.
    if (raw === null && attempt < 3) continue;
    const current = raw === null ? 'a run that keeps taking and releasing it' : parseHolder(raw);
    if (raw === null || tookOver !== null || !isAbandoned(current)) throw new LockHeldError(key, current);
    await redis.eval(RELEASE, 1, key, raw);
    tookOver = current as LockHolder;
  }

  const lost = new AbortController();
  let released = false;
  const holding = () => !released && !lost.signal.aborted;
  // When the last renewal Redis said yes to was sent: the lease runs from then at the latest.
  let leaseFrom = performance.now();
  // When the first renewal Redis left unanswered was sent, once the operator has been told; null
  // while it answers. The silence is counted from there, not from when its timeout was noticed.
  let silentSince: number | null = null;
  // When Redis last answered the lock. Between writes the lock asks only every `renewEveryMs`, so
  // Redis may have been silent since any time after this: the silence told is a range then.
  let heardAt = performance.now();
  type Renewal = { held: boolean; asked: number } | { failed: unknown; asked: number };
  const renew = async (): Promise<Renewal> => {
    const asked = performance.now();
    try {
      const held = (await redis.eval(RENEW, 1, key, value, ttlMs)) === 1;
      return { held, asked };
    } catch (failed) {
      return { failed, asked };
    }
  };
  const answered = () => {
    const now = performance.now();
    if (silentSince !== null) onSilence(`Redis answered the catalogue lock again after ${silence(now - silentSince, now - heardAt)} of silence`);
    silentSince = null;
    heardAt = now;
  };
  // A renewal Redis did not answer (a command timeout, a connection being remade) says nothing of
  // the lock: within the lease it is asked again, and only a lease gone by unconfirmed stops the
  // run. Otherwise a Redis stalled a few seconds (a failover, a snapshot's fork, a paused VM) would
  // stop an import with "Command timed out". A refusal that asking again will not change stops it
  // at once. Read only while the run holds the lock: an answer that comes after it released or lost
  // it says nothing the run still needs, and nothing is printed after the run's last line.
  const settle = (renewal: Renewal): LockLostError | null => {
    if ('held' in renewal) {
      if (renewal.held) leaseFrom = Math.max(leaseFrom, renewal.asked);
      answered();
      return renewal.held ? null : new LockLostError(key);
    }
    const error = renewal.failed;
    if (!isSilence(error)) return new LockUnconfirmedError(key, `Redis refused its renewal: ${messageOf(error)}`);
    const silentMs = performance.now() - leaseFrom;
    if (silentMs >= ttlMs) {
      return new LockUnconfirmedError(
        key,
        `Redis has not answered for ${(silentMs / 1000).toFixed(1)} s, the lock's whole lease (last: ${messageOf(error)})`,
      );
    }
    if (silentSince === null) {
      silentSince = renewal.asked;
      onSilence(
        `Redis is not answering the catalogue lock's renewal (${messageOf(error)}); ` +
          `the run writes nothing more until it does, for up to ${((ttlMs - silentMs) / 1000).toFixed(0)} s`,
      );
    }
    return null;
  };
  // One renewal at a time, the next `renewEveryMs` after the last answer; while Redis is silent,
  // every `retryEveryMs`, so the silence told ends when Redis answers, not at the next 10 s tick.
  // Each ends within the client's command timeout (the tools set one), so the chain never stalls.
  let timer: NodeJS.Timeout;
  const renewLater = () => {
    timer = setTimeout(
      () => {
        if (!holding()) return;
        void renew().then((renewal) => {
          if (!holding()) return;
          const failed = settle(renewal);
          if (failed) lost.abort(failed);
          else renewLater();
        });
      },
      silentSince === null ? renewEveryMs : retryEveryMs,
    );
    timer.unref();
  };
  renewLater();

  return {
    key,
    holder,
    tookOver,
    lost: lost.signal,
    // Nothing is written while it waits: its caller's write follows a yes from Redis, or nothing.
    async confirm(interrupt) {
      for (;;) {
        if (lost.signal.aborted) throw lost.signal.reason;
        interrupt?.throwIfAborted();
        const renewal = await unlessAborted(renew(), interrupt);
        if (lost.signal.aborted) throw lost.signal.reason;
        const failed = settle(renewal);
        if (failed) {
          lost.abort(failed);
          throw failed;
        }
        if ('held' in renewal) return;
        await unlessAborted(new Promise((resolve) => setTimeout(resolve, retryEveryMs)), interrupt);
      }
    },
    async release() {
      released = true;
      clearTimeout(timer);
      await redis.eval(RELEASE, 1, key, value);
      // Its answer is Redis answering: the operator told of a silence hears that it ended.
      if (!lost.signal.aborted) answered();
    },
  };
}

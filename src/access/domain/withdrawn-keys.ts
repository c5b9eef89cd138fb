import type { Withdrawal } from '../store/withdrawal-log.js';

// Withdrawals kept, each kind: as many as the admission remembers verified keys.
const KEPT = 10_000;

function keep<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > KEPT) map.delete(map.keys().next().value as K);
}

/**
 * What this process has heard of withdrawn keys (withdrawal-watch.ts), for the fallback to ask
 * before it admits a key on the strength of Redis's earlier verification: a revoked key, a rotated
 * one past its grace, a disabled account's keys are not admitted that way. Kept apart from any
 * later verification, which a reply already in flight when the withdrawal was written could give.
 * Times here are this process's clock: a rotation's end is carried over from Redis's as the time
 * left when the notice was written, so a clock set apart moves it by no more than the notice took
 * to be read (a second).
 */
export function createWithdrawnKeys() {
  // Key hash -> when it stopped working, here.
  const keys = new Map<string, number>();
  // Disabled accounts: none of their keys is admitted on an earlier verification until enabled again.
  const accounts = new Set<string>();
  // When the log was found to have lost entries this process had not read: any verification
  // older may be of a key withdrawn in them.
  let gapAtMs = -Infinity;

  return {
    note(withdrawal: Withdrawal, readAtMs = Date.now()): void {
      switch (withdrawal.kind) {
        case 'key':
          keep(keys, withdrawal.hash, withdrawal.fromMs > 0 ? readAtMs + Math.max(0, withdrawal.fromMs - withdrawal.writtenMs) : 0);
          return;
        case 'account':
          accounts.add(withdrawal.accountId);
          if (accounts.size > KEPT) accounts.delete(accounts.values().next().value as string);
          return;
        case 'account-restored':
          accounts.delete(withdrawal.accountId);
      }
    },

    /** The log lost entries before this process read them (trimmed while it could not read). */
    lostSome(atMs = Date.now()): void {
      gapAtMs = atMs;
    },

    /** Whether a verification of this key made at `verifiedAtMs` may no longer be relied on at `nowMs`. */
    isWithdrawn(hash: string, accountId: string, verifiedAtMs: number, nowMs = Date.now()): boolean {
      const stoppedMs = keys.get(hash);
      return (stoppedMs !== undefined && stoppedMs <= nowMs) || accounts.has(accountId) || verifiedAtMs <= gapAtMs;
    },
  };
}

export type WithdrawnKeys = ReturnType<typeof createWithdrawnKeys>;

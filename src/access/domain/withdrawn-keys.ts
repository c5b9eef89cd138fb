import type { Withdrawal } from '../store/withdrawal-log.js';

// Withdrawals kept, each kind: as many as the admission remembers verified keys. One forgotten to
// make room counts as a gap (below): a mass revocation must not bring its first keys back.
const KEPT = 10_000;

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
  // Account -> disabled, or when it was heard to be enabled again: only a verification Redis gave
  // after that is relied on (one from before the account was disabled is not, nor one made while
  // a disable and an enable raced, which Redis may have settled as disabled).
  const accounts = new Map<string, { disabled: boolean; atMs: number }>();
  // Verifications made up to this time are not relied on: the log lost entries this process had
  // not read, or it forgot some to make room, and any of them may have withdrawn the key.
  let gapAtMs = -Infinity;

  function keep<V>(map: Map<string, V>, id: string, value: V, nowMs: number): void {
    map.delete(id);
    map.set(id, value);
    if (map.size <= KEPT) return;
    map.delete(map.keys().next().value as string);
    gapAtMs = Math.max(gapAtMs, nowMs);
  }

  return {
    note(withdrawal: Withdrawal, readAtMs = Date.now()): void {
      switch (withdrawal.kind) {
        case 'key':
          keep(keys, withdrawal.hash, withdrawal.fromMs > 0 ? readAtMs + Math.max(0, withdrawal.fromMs - withdrawal.writtenMs) : 0, readAtMs);
          return;
        case 'account':
          keep(accounts, withdrawal.accountId, { disabled: true, atMs: readAtMs }, readAtMs);
          return;
        case 'account-restored':
          keep(accounts, withdrawal.accountId, { disabled: false, atMs: readAtMs }, readAtMs);
      }
    },

    /** The log lost entries before this process read them. */
    lostSome(atMs = Date.now()): void {
      gapAtMs = Math.max(gapAtMs, atMs);
    },

    /** Whether a verification of this key made at `verifiedAtMs` may no longer be relied on at `nowMs`. */
    isWithdrawn(hash: string, accountId: string, verifiedAtMs: number, nowMs = Date.now()): boolean {
      if (verifiedAtMs <= gapAtMs) return true;
      const stoppedMs = keys.get(hash);
      if (stoppedMs !== undefined && stoppedMs <= nowMs) return true;
      const account = accounts.get(accountId);
      return account !== undefined && (account.disabled || verifiedAtMs <= account.atMs);
    },
  };
}

export type WithdrawnKeys = ReturnType<typeof createWithdrawnKeys>;

import type { AdmissionReply, AdmissionStore } from '../../src/access/store/admission-store.js';
import { type KeyLocation, locateKey } from '../../src/access/store/authenticate-lua.js';
import { generateApiKey, newAccountId } from '../../src/access/api-key.js';

/**
 * The admission script's answers without Redis, for unit tests of the decisions around it: keys
 * are known by their hash, each account has `limit` admissions in a window that ends at `resetMs`,
 * and `down` makes every call fail as a Redis that does not answer would. The script itself (the
 * sliding window in Lua) is covered by the integration suite against a real Redis.
 */
export interface InMemoryAdmissionStore extends AdmissionStore {
  /** Every call rejects with this error while it is set. */
  down: Error | null;
  /** While set, every call waits for it before it answers (a Redis that hangs, then resumes or fails). */
  stall: Promise<void> | null;
  /** Calls that reached the store, admitting or reading. */
  admitted: KeyLocation[];
  /** While set, verification on a replica fails with it too (no replica answers either). */
  copiesDown: Error | null;
  /** Replays that reached the store, by id, whether they charged or not. */
  replayed: string[];
  /** The next replay charges, then fails as if its answer were lost on the way back. */
  loseNextReplayAnswer: boolean;
  /** Registers a key on an account of its own; returns the key. */
  addKey(options: { tier: string; limit: number; resetInMs?: number; usageCapped?: boolean }): string;
  /** Registers another key on the account of `apiKey`; returns it. */
  addKeyBeside(apiKey: string): string;
  /** Takes a key away, as revocation does. */
  revoke(apiKey: string): void;
  /** Makes the script report a tier it has no limit for (status 3) for this key. */
  unknownTier(apiKey: string): void;
}

interface Account {
  keyId: string;
  tier: string;
  limit: number;
  used: number;
  resetInMs: number;
  usageCapped: boolean;
  tierKnown: boolean;
}

export function inMemoryAdmissionStore(): InMemoryAdmissionStore {
  const byAccount = new Map<string, Account>();
  const keysOf = new Map<string, Set<string>>();
  const reply = (at: KeyLocation, admitting: boolean): AdmissionReply => {
    if (store.down) throw store.down;
    const account = byAccount.get(at.accountId);
    if (!account || !keysOf.get(at.accountId)?.has(at.hash)) return [0];
    const nowMs = Date.now();
    if (!account.tierKnown) return [3, account.keyId, account.tier];
    let status = 1;
    if (admitting) {
      store.admitted.push(at);
      if (account.used < account.limit) account.used += 1;
      else status = 2;
    } else if (account.usageCapped) status = 4;
    return [status, account.keyId, account.tier, account.limit, account.limit - account.used, nowMs + account.resetInMs, nowMs];
  };
  const replayedIds = new Set<string>();
  const store: InMemoryAdmissionStore = {
    down: null,
    stall: null,
    admitted: [],
    replicas: true,
    copiesDown: null,
    replayed: [],
    loseNextReplayAnswer: false,
    async admit(at) {
      if (store.stall) await store.stall;
      return reply(at, true);
    },
    async peek(at) {
      if (store.stall) await store.stall;
      return reply(at, false);
    },
    async replay(at, id) {
      if (store.stall) await store.stall;
      if (store.down) throw store.down;
      store.replayed.push(id);
      if (replayedIds.has(id)) return [5];
      replayedIds.add(id);
      const answer = reply(at, true);
      if (store.loseNextReplayAnswer) {
        store.loseNextReplayAnswer = false;
        throw new Error('Command timed out');
      }
      return answer;
    },
    async verifyOnAnyCopy(at) {
      if (store.copiesDown) throw store.copiesDown;
      const account = byAccount.get(at.accountId);
      if (!account || !keysOf.get(at.accountId)?.has(at.hash)) return [0];
      return [1, account.keyId, account.tier];
    },
    addKey({ tier, limit, resetInMs = 3_600_000, usageCapped = false }) {
      const accountId = newAccountId();
      const apiKey = generateApiKey(accountId);
      byAccount.set(accountId, { keyId: `key_${accountId}`, tier, limit, used: 0, resetInMs, usageCapped, tierKnown: true });
      keysOf.set(accountId, new Set([locationOf(apiKey).hash]));
      return apiKey;
    },
    revoke(apiKey) {
      const { accountId, hash } = locationOf(apiKey);
      keysOf.get(accountId)?.delete(hash);
    },
    addKeyBeside(apiKey) {
      const { accountId } = locationOf(apiKey);
      const another = generateApiKey(accountId);
      keysOf.get(accountId)!.add(locationOf(another).hash);
      return another;
    },
    unknownTier(apiKey) {
      byAccount.get(locationOf(apiKey).accountId)!.tierKnown = false;
    },
  };
  return store;
}

function locationOf(apiKey: string): KeyLocation {
  const location = locateKey(apiKey);
  if (!location) throw new Error('not a well-formed key');
  return location;
}

// Every key of one account shares the hash tag {<account id>}, so a script
// touching the account, one of its keys and its counters stays in one slot.
export const redisKeys = {
  account: (accountId: string) => `wpc:{${accountId}}:account`,
  apiKey: (accountId: string, hash: string) => `wpc:{${accountId}}:key:${hash}`,
  accountNames: 'wpc:account-names',
  keyIndex: 'wpc:key-index',
  /** Keys and accounts that stopped authenticating, for every API process to hear of (see withdrawal-log.ts). */
  withdrawals: 'wpc:withdrawals',
  /** The account's keys: key id -> key hash (the portal's list). */
  accountKeys: (accountId: string) => `wpc:{${accountId}}:keys`,
  // Held while one change to the account's keys counts them and adds one (key-store.ts).
  keysLock: (accountId: string) => `wpc:{${accountId}}:keys-lock`,
  /** Requests per hour over the last day (see USAGE_HISTORY_LUA). */
  accountHours: (accountId: string) => `wpc:{${accountId}}:hours`,
  /** One key's requests per minute over the last hour, and its last use. */
  keyUse: (accountId: string, hash: string) => `wpc:{${accountId}}:use:${hash}`,
  /** Marks one replayed admission as charged (see MODE_LUA.replayOnce). */
  replay: (accountId: string, id: string) => `wpc:{${accountId}}:replay:${id}`,
};

// The account's log of admission times (see SLIDING_WINDOW_LUA). Its own suffix, `:rl:log`,
// keeps it apart from any other counter named after the account.
export const rateLimitKey = (accountId: string) => `wpc:{${accountId}}:rl:log`;

// Reads of GET /v1/usage by one key, in the current minute (see USAGE_CAP).
export const usageReadsKey = (accountId: string, hash: string) => `wpc:{${accountId}}:usage:${hash}`;

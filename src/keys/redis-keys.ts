// Every key of one account shares the hash tag {<account id>}, so a script
// touching the account, one of its keys and its counters stays in one slot.
export const redisKeys = {
  account: (accountId: string) => `wpc:{${accountId}}:account`,
  apiKey: (accountId: string, hash: string) => `wpc:{${accountId}}:key:${hash}`,
  accountNames: 'wpc:account-names',
  keyIndex: 'wpc:key-index',
};

export const rateLimitKey = (accountId: string) => `wpc:{${accountId}}:rl`;

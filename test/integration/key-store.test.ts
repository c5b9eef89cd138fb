import { expect } from 'chai';
import { createKeyStore } from '../../src/access/key-store.js';
import { redisKeys } from '../../src/access/redis-keys.js';
import { readyRedis, uniqueName } from '../support/harness.js';

describe('key store', () => {
  it('when many keys are created at once for a new account name, then they all land on one complete account', async () => {
    const redis = await readyRedis();
    try {
      const store = createKeyStore(redis);
      const account = uniqueName('race');
      const created = await Promise.all(Array.from({ length: 20 }, () => store.createKey({ tier: 'premium', account })));
      const ids = new Set(created.map((c) => c.accountId));
      expect(ids.size).to.equal(1);
      const [accountId] = [...ids];
      expect(await redis.hget(redisKeys.accountNames, account)).to.equal(accountId);
      expect(await redis.hgetall(redisKeys.account(accountId!))).to.include({ name: account, tier: 'premium' });
    } finally {
      redis.disconnect();
    }
  });

  it('when a key creation died after listing the key but before writing it, then the listing skips it and nothing authenticates', async () => {
    const redis = await readyRedis();
    try {
      const store = createKeyStore(redis);
      const { accountId } = await store.createKey({ tier: 'free', account: uniqueName('half') });
      const keyId = uniqueName('key_dead');
      await redis.hset(redisKeys.keyIndex, keyId, JSON.stringify({ account_id: accountId, hash: 'f'.repeat(64) }));
      expect((await store.listKeys()).map((k) => k.key_id)).to.not.include(keyId);
      expect(await store.revokeKey(keyId)).to.equal(true);
      expect(await redis.hget(redisKeys.apiKey(accountId, 'f'.repeat(64)), 'key_id')).to.equal(null);
      await redis.hdel(redisKeys.keyIndex, keyId);
    } finally {
      redis.disconnect();
    }
  });
});

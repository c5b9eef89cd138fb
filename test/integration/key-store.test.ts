import { expect } from 'chai';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { createAdmissionStore } from '../../src/access/store/admission-store.js';
import { locateKey } from '../../src/access/store/authenticate-lua.js';
import { redisKeys } from '../../src/access/store/redis-keys.js';
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
      expect(await store.revokeKey(keyId)).to.include({ already: false });
      expect(await redis.hget(redisKeys.apiKey(accountId, 'f'.repeat(64)), 'key_id')).to.equal(null);
      await redis.hdel(redisKeys.keyIndex, keyId);
    } finally {
      redis.disconnect();
    }
  });

  it('when a key was used, then its listing counts the requests and gives the minute of last use; an unused key was never used', async () => {
    const redis = await readyRedis();
    try {
      const store = createKeyStore(redis);
      const { accountId, apiKey } = await store.createKey({ tier: 'free', account: uniqueName('use') });
      const { keyId: idle } = await store.createAccountKey(accountId, 'idle');
      const admissions = createAdmissionStore(redis, { windowMs: 3_600_000, tiers: { free: 1000 } });
      const [seconds] = await redis.time();
      for (let i = 0; i < 3; i++) expect((await admissions.admit(locateKey(apiKey)!))[0]).to.equal(1);
      const [after] = await redis.time();
      const keys = await store.listAccountKeys(accountId);
      const used = keys.find((k) => k.key_id !== idle)!;
      const minutes = [Number(seconds), Number(after)].map((s) => new Date(Math.floor(s / 60) * 60_000).toISOString());
      expect(minutes).to.include(used.last_used);
      expect(used.recent_requests).to.equal(3);
      expect(keys.find((k) => k.key_id === idle)).to.include({ last_used: null, recent_requests: 0 });
    } finally {
      redis.disconnect();
    }
  });
});

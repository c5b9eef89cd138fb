import { expect } from 'chai';
import { DEAD_KEYS_KEPT, KeysBusy, MAX_WORKING_KEYS, TooManyKeys, createKeyStore } from '../../src/access/store/key-store.js';
import { redisKeys } from '../../src/access/store/redis-keys.js';
import { readyRedis, uniqueName } from '../support/harness.js';

// A portal account's keys are bounded: each working key adds a row to every load of the keys page
// and a usage-read cap of its own, so an account must not make them without end.
describe('keys per portal account', function () {
  this.timeout(60_000);
  let redis: Awaited<ReturnType<typeof readyRedis>>;
  let store: ReturnType<typeof createKeyStore>;
  before(async () => {
    redis = await readyRedis();
    store = createKeyStore(redis);
  });
  after(() => redis.disconnect());

  const newAccount = async () => (await store.createKey({ tier: 'free', account: uniqueName('cap') })).accountId;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => err,
    );

  it(`when an account holds ${MAX_WORKING_KEYS} working keys, then another is refused until one is revoked`, async () => {
    const accountId = await newAccount();
    for (let i = 1; i < MAX_WORKING_KEYS; i++) await store.createAccountKey(accountId, `key ${i}`);
    expect(await failure(store.createAccountKey(accountId, 'one too many'))).to.be.instanceOf(TooManyKeys);
    const [oldest] = (await store.listAccountKeys(accountId)).slice(-1);
    expect(await store.revokeAccountKey(accountId, oldest!.key_id)).to.equal(true);
    expect(await store.createAccountKey(accountId, 'in its place')).to.have.property('apiKey');
  });

  it('when an account at the bound rotates a key, then with a grace it is refused (both would work), with none it is done', async () => {
    const accountId = await newAccount();
    for (let i = 1; i < MAX_WORKING_KEYS; i++) await store.createAccountKey(accountId, `key ${i}`);
    const [key] = await store.listAccountKeys(accountId);
    expect(await failure(store.rotateAccountKey(accountId, key!.key_id, 3600))).to.be.instanceOf(TooManyKeys);
    expect(await store.rotateAccountKey(accountId, key!.key_id, 0)).to.have.property('apiKey');
  });

  it('when keys are asked for at once, then no more than the bound are made: the others are told to wait or that there is no room', async () => {
    const accountId = await newAccount();
    const outcomes = await Promise.all(
      Array.from({ length: 3 * MAX_WORKING_KEYS }, (_, i) =>
        store.createAccountKey(accountId, `racer ${i}`).then(
          () => 'made',
          (err: unknown) => err,
        ),
      ),
    );
    expect(outcomes.every((o) => o === 'made' || o instanceof KeysBusy || o instanceof TooManyKeys)).to.equal(true);
    const working = (await store.listAccountKeys(accountId)).filter((k) => !k.revoked_at && !k.expires_at);
    expect(working.length).to.be.at.most(MAX_WORKING_KEYS);
    expect(outcomes.filter((o) => o === 'made').length).to.equal(working.length - 1);
  });

  it(`when keys are made and revoked over and over, then the latest ${DEAD_KEYS_KEPT} revoked are kept and the older ones are gone from every index`, async () => {
    const accountId = await newAccount();
    const revoked: string[] = [];
    for (let i = 0; i < DEAD_KEYS_KEPT + 5; i++) {
      const { keyId } = await store.createAccountKey(accountId, `short-lived ${i}`);
      await store.revokeAccountKey(accountId, keyId);
      revoked.push(keyId);
    }
    const listed = await store.listAccountKeys(accountId);
    expect(listed.filter((k) => k.revoked_at).map((k) => k.key_id)).to.have.members(revoked.slice(-DEAD_KEYS_KEPT));
    for (const keyId of revoked.slice(0, 5)) {
      expect(await redis.hget(redisKeys.keyIndex, keyId), keyId).to.equal(null);
      expect(await redis.hget(redisKeys.accountKeys(accountId), keyId), keyId).to.equal(null);
    }
  });
});

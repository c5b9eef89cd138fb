import { expect } from 'chai';
import { createDeviceStore, DEVICES_PER_ACCOUNT } from '../../src/portal/store/device-store.js';
import { readyRedis, uniqueName } from '../support/harness.js';

describe('portal device store', () => {
  it(`when an account signs in from more than ${DEVICES_PER_ACCOUNT} new browsers, then it keeps the latest ${DEVICES_PER_ACCOUNT} known and forgets the rest`, async () => {
    const redis = await readyRedis();
    try {
      const devices = createDeviceStore(redis);
      const account = uniqueName('acct');
      const tokens: string[] = [];
      for (let i = 0; i < DEVICES_PER_ACCOUNT + 3; i++) tokens.push(await devices.issue(account));
      const known = await Promise.all(tokens.map((token) => devices.accountOf(token)));
      expect(known.slice(0, 3), 'the oldest three').to.deep.equal([null, null, null]);
      expect(known.slice(3)).to.deep.equal(tokens.slice(3).map(() => account));
      expect(await redis.zcard(`wpc:devices-of:${account}`)).to.equal(DEVICES_PER_ACCOUNT);
      const other = uniqueName('acct');
      expect(await devices.accountOf(await devices.issue(other)), 'another account keeps its own').to.equal(other);
      expect(await devices.accountOf(tokens.at(-1)), 'this account`s latest still known').to.equal(account);
    } finally {
      redis.disconnect();
    }
  });

  it('when an account forgets its other browsers, then only the one kept stays known, and another account`s stay', async () => {
    const redis = await readyRedis();
    try {
      const devices = createDeviceStore(redis);
      const [account, other] = [uniqueName('acct'), uniqueName('acct')];
      const tokens = [await devices.issue(account), await devices.issue(account), await devices.issue(account)];
      const others = await devices.issue(other);
      expect(await devices.forgetOthers(account, tokens[1])).to.equal(2);
      expect(await Promise.all(tokens.map((token) => devices.accountOf(token)))).to.deep.equal([null, account, null]);
      expect(await redis.zcard(`wpc:devices-of:${account}`)).to.equal(1);
      expect(await devices.accountOf(others)).to.equal(other);
      expect(await devices.forgetOthers(account), 'without one to keep').to.equal(1);
      expect(await devices.accountOf(tokens[1])).to.equal(null);
    } finally {
      redis.disconnect();
    }
  });
});

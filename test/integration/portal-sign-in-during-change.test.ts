import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createAccountStore } from '../../src/access/store/account-store.js';
import { createWorkBudget } from '../../src/infra/work-budget.js';
import { createPortalService } from '../../src/portal/domain/portal-service.js';
import { createDeviceStore } from '../../src/portal/store/device-store.js';
import { createSessionStore } from '../../src/portal/store/session-store.js';
import { createThrottleStore } from '../../src/portal/store/throttle-store.js';
import { readyRedis, uniqueName } from '../support/harness.js';

describe('a portal sign-in while the password changes', function () {
  this.timeout(30_000);
  const OLD = 'correct horse battery staple';
  const NEW = 'a brand new staple horse rides';
  let redis: Redis;

  before(async () => (redis = await readyRedis()));
  after(() => redis.disconnect());

  it('when the owner changes the password between a sign-in reading the account and checking the old password, then that sign-in is refused and leaves no session or browser', async () => {
    // The sign-in had read the old hash, matched the old password, and made its session and
    // browser after the change had ended the others: a session for whoever knew the old password
    // (helper-111, 4 times in 4 with the sign-in 10-100 ms after the change).
    const accounts = createAccountStore(redis);
    const sessions = createSessionStore(redis);
    const devices = createDeviceStore(redis);
    let meanwhile: (() => Promise<unknown>) | null = null;
    const service = createPortalService({
      accounts: {
        ...accounts,
        byName: async (name: string) => {
          const read = await accounts.byName(name);
          const change = meanwhile;
          meanwhile = null;
          await change?.();
          return read;
        },
      },
      sessions,
      throttle: createThrottleStore(redis),
      devices,
      hashing: createWorkBudget({ concurrency: 4, queue: 8 }),
      defaultTier: 'free',
    });
    const email = `${uniqueName('race')}@example.com`;
    expect(await service.signUp(email, OLD, uniqueName('client'))).to.deep.equal({ outcome: 'done' });
    const owner = await service.signIn(email, OLD, uniqueName('client'));
    if (owner.outcome !== 'signed-in') throw new Error(`the owner could not sign in: ${owner.outcome}`);
    const accountId = owner.session.accountId;

    meanwhile = () => service.changePassword({ accountId, email, token: owner.token, device: owner.device }, OLD, NEW, uniqueName('client'));
    const late = await service.signIn(email, OLD, uniqueName('client'));
    expect(late.outcome).to.equal('refused');
    expect(meanwhile, 'the change ran in between').to.equal(null);
    expect(await redis.zrange(`wpc:sessions-of:${accountId}`, 0, -1), 'the owner`s session alone').to.have.length(1);
    expect(await redis.zcard(`wpc:devices-of:${accountId}`), 'the owner`s browser alone').to.equal(1);
    expect(await devices.accountOf(owner.device)).to.equal(accountId);
    expect((await service.signIn(email, NEW, uniqueName('client'))).outcome).to.equal('signed-in');
  });
});

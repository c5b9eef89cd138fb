import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createAccountStore } from '../../src/access/store/account-store.js';
import { createWorkBudget } from '../../src/infra/work-budget.js';
import { createPortalService } from '../../src/portal/domain/portal-service.js';
import { createDeviceStore } from '../../src/portal/store/device-store.js';
import { createSessionStore } from '../../src/portal/store/session-store.js';
import { createThrottleStore } from '../../src/portal/store/throttle-store.js';
import { readyRedis, uniqueName } from '../support/harness.js';

describe('two portal password changes at once', function () {
  this.timeout(30_000);
  const OLD = 'correct horse battery staple';
  let redis: Redis;

  before(async () => (redis = await readyRedis()));
  after(() => redis.disconnect());

  it('when two sessions change the password at the same moment, each with the right one, then one is changed and the other told it was changed elsewhere, and only the changed password signs in', async () => {
    // Both had read the account and checked the old password before either wrote: both were told
    // "changed", and the last to write won, though its session had been ended by the first
    // (helper-152, 3 times in 3).
    const accounts = createAccountStore(redis);
    let reads = 0;
    let bothRead: () => void = () => undefined;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    let held = false;
    const service = createPortalService({
      accounts: {
        ...accounts,
        byId: async (id: string) => {
          const read = await accounts.byId(id);
          if (held) {
            reads += 1;
            if (reads === 2) bothRead();
            await barrier;
          }
          return read;
        },
      },
      sessions: createSessionStore(redis),
      throttle: createThrottleStore(redis),
      devices: createDeviceStore(redis),
      hashing: createWorkBudget({ concurrency: 4, queue: 8 }),
      defaultTier: 'free',
    });
    const email = `${uniqueName('twice')}@example.com`;
    expect(await service.signUp(email, OLD, uniqueName('client'))).to.deep.equal({ outcome: 'done' });
    const owner = await service.signIn(email, OLD, uniqueName('client'));
    const thief = await service.signIn(email, OLD, uniqueName('client'));
    if (owner.outcome !== 'signed-in' || thief.outcome !== 'signed-in') throw new Error('both could not sign in');
    const accountId = owner.session.accountId;
    const passwords = ['the owner picks this long phrase', 'the thief picks another phrase'];

    held = true;
    const changes = await Promise.all(
      [owner, thief].map((signed, i) =>
        service.changePassword({ accountId, email, token: signed.token, device: signed.device }, OLD, passwords[i]!, uniqueName('client')),
      ),
    );
    held = false;
    const outcomes = changes.map((change) => change.outcome);
    expect([...outcomes].sort()).to.deep.equal(['changed', 'changed-elsewhere']);
    const won = outcomes.indexOf('changed');
    expect((await service.signIn(email, passwords[won]!, uniqueName('client'))).outcome).to.equal('signed-in');
    expect((await service.signIn(email, passwords[1 - won]!, uniqueName('client'))).outcome).to.equal('refused');
    expect((await service.signIn(email, OLD, uniqueName('client'))).outcome).to.equal('refused');
  });
});

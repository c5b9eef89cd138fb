import { expect } from 'chai';
import { createFallbackLimiter } from '../../../../src/access/domain/fallback-limiter.js';

const config = { tiers: { free: 2, premium: 4 }, windowSeconds: 60, authFailureLimit: 10, authFailureWindowSeconds: 60, authGraceMs: 1000 };

async function spend(consume: ReturnType<typeof createFallbackLimiter>, account: string, tier: string, n: number) {
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await consume(account, tier));
  return answers;
}

describe('the in-process fallback limiter', () => {
  it('when an account spends its tier`s limit, then the next request is refused with nothing remaining and a reset inside the window', async () => {
    const consume = createFallbackLimiter(config);
    const answers = await spend(consume, 'acct-a', 'free', 3);
    expect(answers.map((a) => a.allowed)).to.deep.equal([true, true, false]);
    expect(answers.map((a) => a.quota.remaining)).to.deep.equal([1, 0, 0]);
    const last = answers[2]!.quota;
    expect(last).to.include({ tier: 'free', limit: 2, windowSeconds: 60 });
    expect(last.resetMs - last.nowMs)
      .to.be.above(0)
      .and.at.most(60_000);
  });

  it('when two accounts share a tier, then each is counted apart', async () => {
    const consume = createFallbackLimiter(config);
    await spend(consume, 'acct-a', 'free', 2);
    expect((await consume('acct-b', 'free')).allowed).to.equal(true);
    expect((await consume('acct-a', 'free')).allowed).to.equal(false);
  });

  it('when an account is on the premium tier, then it gets the premium limit', async () => {
    const consume = createFallbackLimiter(config);
    const answers = await spend(consume, 'acct-p', 'premium', 5);
    expect(answers.map((a) => a.allowed)).to.deep.equal([true, true, true, true, false]);
  });

  it('when the tier has no configured limit, then the request is refused rather than admitted without bound', async () => {
    const consume = createFallbackLimiter(config);
    const answer = await consume('acct-x', 'gold');
    expect(answer.allowed).to.equal(false);
    expect(answer.quota).to.include({ limit: 0, remaining: 0 });
  });
});

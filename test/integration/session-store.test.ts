import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { createSessionStore, SESSION_IDLE_SECONDS, SESSION_LIFETIME_SECONDS } from '../../src/portal/store/session-store.js';
import { readyRedis, uniqueName } from '../support/harness.js';

const recordOf = (token: string) => `wpc:session:${createHash('sha256').update(token).digest('hex')}`;

describe('portal session store', () => {
  it('when a session is made, then its record expires after the idle time', async () => {
    const redis = await readyRedis();
    try {
      const { token } = await createSessionStore(redis).create(uniqueName('acct'));
      const ttl = await redis.ttl(recordOf(token));
      expect(ttl).to.be.within(SESSION_IDLE_SECONDS - 5, SESSION_IDLE_SECONDS);
    } finally {
      redis.disconnect();
    }
  });

  it('when a session was signed in to longer ago than its lifetime, then it has ended, however busy it was', async () => {
    const redis = await readyRedis();
    try {
      const sessions = createSessionStore(redis);
      const { token } = await sessions.create(uniqueName('acct'));
      const justWithin = new Date(Date.now() - SESSION_LIFETIME_SECONDS * 1000 + 60_000).toISOString();
      await redis.hset(recordOf(token), 'created_at', justWithin);
      expect(await sessions.get(token), 'a minute before its end').to.not.equal(null);
      await redis.hset(recordOf(token), 'created_at', new Date(Date.now() - SESSION_LIFETIME_SECONDS * 1000 - 1000).toISOString());
      expect(await sessions.get(token)).to.equal(null);
      expect(await redis.exists(recordOf(token)), 'its record is gone').to.equal(0);
    } finally {
      redis.disconnect();
    }
  });

  it('when a page hands off a new key or issues a form just after its session was signed out, then no record is made again', async () => {
    const redis = await readyRedis();
    try {
      const sessions = createSessionStore(redis);
      const { token } = await sessions.create(uniqueName('acct'));
      await sessions.destroy(token);
      await sessions.handOff(token, { apiKey: 'wpc_the_key_shown_once' });
      await sessions.issueForm(token);
      expect(await redis.exists(recordOf(token)), 'a record without expiry, holding the sealed key').to.equal(0);
      expect(await sessions.takeHandOff(token)).to.equal(null);
    } finally {
      redis.disconnect();
    }
  });

  it('when a live session hands off and issues forms, then they are kept and its expiry stays', async () => {
    const redis = await readyRedis();
    try {
      const sessions = createSessionStore(redis);
      const { token } = await sessions.create(uniqueName('acct'));
      const form = await sessions.issueForm(token);
      await sessions.handOff(token, { apiKey: 'wpc_kept' });
      expect(await sessions.takeHandOff(token)).to.deep.equal({ apiKey: 'wpc_kept' });
      expect(await sessions.useForm(token, form)).to.equal(true);
      expect(await redis.ttl(recordOf(token))).to.be.greaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});

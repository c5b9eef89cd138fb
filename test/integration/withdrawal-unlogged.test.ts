import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Redis } from 'ioredis';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { nodeArgsFor } from '../support/compiled-scripts.js';
import { readyRedis, request, startApp, testConfig, uniqueName } from '../support/harness.js';
import { captureLogs } from '../support/log-capture.js';
import { browserFor, keyIds, newEmail, shownKey, signedIn, type PortalBrowser, type PortalPage } from '../support/portal-browser.js';
import { useCatalogue } from './catalogue-context.js';

const run = promisify(execFile);

/**
 * A change to keys whose withdrawal the log cannot take (here a Redis user refused XADD, as a
 * Cluster shard that is down would refuse it) is made all the same, and the operator is told what
 * the missing entry leaves open: the fallback of a process that loses Redis reads only the log.
 */
describe('a withdrawal the log could not take', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({ trustProxyHops: 1 });
  const user = uniqueName('no-xadd');
  const password = uniqueName('pw');
  let refusedUrl: string;
  let refused: Redis;

  before(async () => {
    await ctx.redis.call('ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '&*', '+@all', '-xadd');
    const url = new URL(testConfig().redisUrl);
    url.username = user;
    url.password = password;
    refusedUrl = url.toString();
    refused = await readyRedis(refusedUrl);
  });

  after(async () => {
    refused.disconnect();
    // The suite's own client is closed by now (its after hook runs first).
    const admin = await readyRedis();
    await admin.call('ACL', 'DELUSER', user);
    admin.disconnect();
  });

  async function keys(redisUrl: string, ...args: string[]) {
    const { stdout, stderr } = await run(process.execPath, [...nodeArgsFor('scripts/keys.ts'), ...args], {
      env: { ...process.env, REDIS_URL: redisUrl },
      timeout: 30_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    return { stdout, stderr };
  }

  const wallpapers = (key: string) => request(ctx.app.url, '/v1/wallpapers?per_page=1', { key, contract: false });

  it('when an operator revokes a key, disables and enables its account, then each is done and each says what the log leaves open, after its own line', async () => {
    const account = uniqueName('unlogged');
    const made = await createKeyStore(ctx.redis).createKey({ tier: 'free', account });
    expect((await wallpapers(made.apiKey)).status).to.equal(200);

    const revoked = await keys(refusedUrl, 'revoke', made.keyId);
    expect(revoked.stderr.split('\n').filter(Boolean)).to.deep.equal([
      `revoked ${made.keyId} at ${revoked.stderr.match(/ at (\S+)\n/)![1]}`,
      `warning: key ${made.keyId} revoked, but the withdrawal log could not be written (NOPERM this user has no permissions to run the 'xadd' command): ` +
        'an API process that loses Redis within AUTH_GRACE_MS of verifying it may admit it until Redis answers again',
    ]);
    expect((await wallpapers(made.apiKey)).status).to.equal(403);

    const disabled = await keys(refusedUrl, 'disable', account);
    expect(disabled.stderr).to.match(
      new RegExp(
        `^account '${account}' is disabled\\nwarning: account id:${made.accountId} disabled, but the withdrawal log could not be written \\(NOPERM [^)]*\\): an API process that loses Redis within AUTH_GRACE_MS of verifying one of its keys may admit that key until Redis answers again\\n$`,
      ),
    );
    const enabled = await keys(refusedUrl, 'enable', account);
    expect(enabled.stderr).to.match(
      new RegExp(
        `^account '${account}' is enabled\\nwarning: account id:${made.accountId} enabled, but the withdrawal log could not be written \\(NOPERM [^)]*\\): an API process that heard of its disable goes on refusing its keys while it cannot reach Redis, until it restarts\\n$`,
      ),
    );
    const listed = (await keys(testConfig().redisUrl, 'list', '--json')).stdout;
    const entry = (JSON.parse(listed) as { key_id: string; revoked_at: string | null; account_disabled_at: string | null }[]).find(
      (k) => k.key_id === made.keyId,
    );
    expect(entry).to.include({ account_disabled_at: null });
    expect(entry?.revoked_at).to.be.a('string');
  });

  it('when the log takes it, then the operator reads only the command`s own line', async () => {
    const account = uniqueName('logged');
    const made = await createKeyStore(ctx.redis).createKey({ tier: 'free', account });
    expect((await keys(testConfig().redisUrl, 'revoke', made.keyId)).stderr).to.match(new RegExp(`^revoked ${made.keyId} at \\S+\\n$`));
    expect((await keys(testConfig().redisUrl, 'disable', account)).stderr).to.equal(`account '${account}' is disabled\n`);
  });

  it('when a developer revokes or rotates a key in the portal, then it is done and the API logs a warning naming the key, never the key itself', async () => {
    const logs = captureLogs('warn');
    const app = await startApp({ config: ctx.config, es: ctx.es, redis: refused, logger: logs.logger });
    try {
      const b = browserFor(app.url);
      const submitted = async (posted: Promise<PortalPage>) => b.follow(await posted);
      const generate = async (browser: PortalBrowser, page: PortalPage, name: string) =>
        shownKey(await submitted(browser.post('/portal/keys', page, { name })));
      const page = await signedIn(b, newEmail());
      const toRevoke = await generate(b, page, 'to revoke');
      const toRotate = await generate(b, await b.get('/portal/keys'), 'to rotate');
      const listed = await b.get('/portal/keys');
      const [rotateId, revokeId] = keyIds(listed);
      expect((await submitted(b.post(`/portal/keys/${revokeId}/revoke`, listed, {}))).html).to.include('is revoked');
      const again = await b.get('/portal/keys');
      expect((await submitted(b.post(`/portal/keys/${rotateId}/rotate`, again, { grace: '0' }))).html).to.include(rotateId);
      const warnings = logs
        .text()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; msg: string; key_id?: string });
      expect(
        warnings.filter((w) => w.msg.includes('withdrawal log')).map(({ level, key_id, msg }) => [level, key_id, msg.split(':')[0]]),
      ).to.deep.equal([
        [
          'warn',
          revokeId,
          `key ${revokeId} revoked, but the withdrawal log could not be written (NOPERM this user has no permissions to run the 'xadd' command)`,
        ],
        [
          'warn',
          rotateId,
          `key ${rotateId} rotated, but the withdrawal log could not be written (NOPERM this user has no permissions to run the 'xadd' command)`,
        ],
      ]);
      expect(logs.text()).not.to.include(toRevoke).and.not.to.include(toRotate);
      expect((await request(app.url, '/v1/wallpapers?per_page=1', { key: toRevoke, contract: false })).status).to.equal(403);
      expect((await request(app.url, '/v1/wallpapers?per_page=1', { key: toRotate, contract: false })).status).to.equal(403);
    } finally {
      await app.close();
    }
  });
});

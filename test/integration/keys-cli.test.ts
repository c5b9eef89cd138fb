import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseApiKey } from '../../src/access/api-key.js';
import { createAccountStore } from '../../src/access/store/account-store.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { hashPassword } from '../../src/infra/password-hash.js';
import { hasInvisible } from '../../src/infra/visible-text.js';
import { nodeArgsFor } from '../support/compiled-scripts.js';
import { request, uniqueName } from '../support/harness.js';
import { hungServer } from '../support/hung-server.js';
import { useCatalogue } from './catalogue-context.js';

const run = promisify(execFile);

async function keysWith(env: Record<string, string>, ...args: string[]) {
  try {
    // The script as its own process, without npx and the tsx command's extra process in between
    // (1.2 s against 0.4 s a call, of which this suite makes dozens), compiled once per run.
    const { stdout, stderr } = await run(process.execPath, [...nodeArgsFor('scripts/keys.ts'), ...args], {
      env: { ...process.env, ...env },
      timeout: 30_000,
      // `keys list` prints every key of the shared test Redis, which grows with every run.
      maxBuffer: 256 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const keys = (...args: string[]) => keysWith({}, ...args);

describe('keys CLI', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();

  it('when Redis cannot be reached or its URL is malformed, then the password in REDIS_URL is never printed', async () => {
    const unreachable = await keysWith({ REDIS_URL: 'redis://admin:s3cr3t-pw@127.0.0.1:9/0' }, 'list');
    expect(unreachable.code).to.equal(1);
    expect(unreachable.stderr).to.include('cannot reach Redis at redis://***@127.0.0.1:9/0');
    const malformed = await keysWith({ REDIS_URL: 'http://admin:s3cr3t-pw@127.0.0.1:9' }, 'list');
    expect(malformed.code).to.equal(2);
    expect(malformed.stderr).to.include('REDIS_URL');
    for (const res of [unreachable, malformed]) expect(res.stdout + res.stderr).to.not.include('s3cr3t-pw');
  });

  it('when Redis cannot be reached, then it says why: the refused port or the missing socket, not only that the connection closed', async () => {
    const refused = await keysWith({ REDIS_URL: 'redis://127.0.0.1:9' }, 'list');
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(/cannot reach Redis at redis:\/\/127\.0\.0\.1:9: connect ECONNREFUSED.*start it with: npm run stack:start/);
    const missing = await keysWith({ REDIS_URL: 'unix:///tmp/no-redis-here.sock' }, 'list');
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.match(/cannot reach Redis at unix:\/\/\/tmp\/no-redis-here\.sock: connect ENOENT/);
  });

  it('when Redis takes the connection and answers nothing, then it says Redis is running but stalled, not to start it', async () => {
    const hung = await hungServer();
    try {
      const url = hung.url.replace('http:', 'redis:');
      const stalled = await keysWith({ REDIS_URL: url }, 'revoke', 'wpc_k_nothing');
      expect(stalled.code).to.equal(1);
      expect(stalled.stderr).to.include(`cannot reach Redis at ${url}: Command timed out; it took the connection but did not answer in time`);
      expect(stalled.stderr).not.to.include('stack:start');
    } finally {
      await hung.close();
    }
  });

  it('when given an option it does not know, then it prints its usage and exits 2, with no stack trace; --help prints it and exits 0', async () => {
    const unknown = await keys('list', '--bogus');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.include("Unknown option '--bogus'").and.include('keys create --tier TIER');
    expect(unknown.stderr).to.not.match(/\n\s+at /);
    const help = await keys('--help');
    expect(help.code).to.equal(0);
    expect(help.stdout).to.include('keys create --tier TIER');
  });

  it('when a key is created, then stdout holds the key alone and it authenticates', async () => {
    const account = uniqueName('cli');
    const created = await keys('create', '--tier', 'premium', '--account', account);
    expect(created.code).to.equal(0);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).to.have.length(1);
    const key = lines[0]!;
    expect(parseApiKey(key)).to.not.equal(null);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(200);

    const listed = await keys('list', '--json');
    expect(listed.stdout).to.not.include(key.slice(17));
    const entry = (JSON.parse(listed.stdout) as { key_id: string; account: string; tier: string; revoked_at: null }[]).find(
      (k) => k.account === account,
    );
    expect(entry).to.include({ tier: 'premium', revoked_at: null });

    const table = await keys('list');
    expect(table.stdout).to.include(entry!.key_id).and.include(account);
    expect(table.stdout).to.not.include(key.slice(17));

    const revoked = await keys('revoke', entry!.key_id);
    expect(revoked.code).to.equal(0);
    const res = await request(ctx.app.url, '/v1/wallpapers', { key });
    expect(res.status).to.equal(403);
    const after = (JSON.parse((await keys('list', '--json')).stdout) as { key_id: string; revoked_at: string | null }[]).find(
      (k) => k.key_id === entry!.key_id,
    );
    expect(after!.revoked_at).to.match(/Z$/);
  });

  it('when the tier is missing or unknown, then it exits 2 with usage and prints no key', async () => {
    for (const args of [['create'], ['create', '--tier', 'gold']]) {
      const res = await keys(...args);
      expect(res.code).to.equal(2);
      expect(res.stdout).to.equal('');
      expect(res.stderr).to.include('--tier must be one of free, premium');
    }
  });

  it('when a key is revoked again, then it says so and keeps the time of the first revocation', async () => {
    const created = await keys('create', '--tier', 'free', '--account', uniqueName('twice'));
    const keyId = /created (key_\S+)/.exec(created.stderr)![1]!;
    const revokedAt = async () =>
      (JSON.parse((await keys('list', '--json')).stdout) as { key_id: string; revoked_at: string | null }[]).find((k) => k.key_id === keyId)!
        .revoked_at;
    const first = await keys('revoke', keyId);
    expect(first.stderr).to.include(`revoked ${keyId} at`);
    const at = await revokedAt();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await keys('revoke', keyId);
    expect(again.code).to.equal(0);
    expect(again.stderr).to.equal(`${keyId} was already revoked at ${at}\n`);
    expect(await revokedAt()).to.equal(at);
  });

  it('when an unknown key id is revoked, then it exits 1 naming it', async () => {
    const res = await keys('revoke', 'key_doesnotexist');
    expect(res.code).to.equal(1);
    expect(res.stderr).to.include('key_doesnotexist');
  });

  it('when an existing account is asked for another tier, then it refuses', async () => {
    const account = uniqueName('tiered');
    expect((await keys('create', '--tier', 'free', '--account', account)).code).to.equal(0);
    const res = await keys('create', '--tier', 'premium', '--account', account);
    expect(res.code).to.equal(1);
    expect(res.stdout).to.equal('');
    expect(res.stderr).to.include(`account '${account}' is on tier 'free'`).and.include(`keys tier ${account} premium`);
  });

  it('when an operator changes the tier and disables then enables the account, then the API follows each change', async () => {
    const account = uniqueName('ops');
    const key = (await keys('create', '--tier', 'free', '--account', account)).stdout.trim();
    expect((await keys('tier', account, 'premium')).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).headers.get('X-RateLimit-Limit')).to.equal('10000');
    const disabledAt = async () =>
      (JSON.parse((await keys('list', '--json')).stdout) as { account: string; account_disabled_at: string | null }[]).find(
        (k) => k.account === account,
      )!.account_disabled_at;
    expect(await disabledAt()).to.equal(null);
    expect((await keys('disable', account)).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(403);
    expect(await disabledAt(), 'the list says the account is disabled').to.match(/Z$/);
    expect((await keys('enable', account)).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(200);
    expect(await disabledAt()).to.equal(null);
    const unknown = await keys('disable', uniqueName('nobody'));
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.include('no account');
    const unknownTier = await keys('tier', account, 'platinum');
    expect(unknownTier.code).to.equal(2);
    expect(unknownTier.stderr).to.include("tier 'platinum' is not one of free, premium");
  });

  it('when a key is made for a disabled account, then it is made but the operator is told it answers 403 until the account is enabled', async () => {
    const account = uniqueName('dormant');
    expect((await keys('create', '--tier', 'free', '--account', account)).code).to.equal(0);
    expect((await keys('disable', account)).code).to.equal(0);
    const created = await keys('create', '--tier', 'free', '--account', account);
    expect(created.code).to.equal(0);
    const key = created.stdout.trim();
    const accountId = /\(id (\S+), free\)/.exec(created.stderr)![1]!;
    expect(created.stderr).to.match(
      new RegExp(`account '${account}' is disabled \\(since [^)]+Z\\): this key answers 403 until keys enable id:${accountId}`),
    );
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(403);
    expect((await keys('enable', `id:${accountId}`)).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(200);
    const enabled = await keys('create', '--tier', 'free', '--account', account);
    expect(enabled.stderr).to.not.include('is disabled');
  });

  describe('portal accounts', () => {
    // A stranger registers a customer's email in the portal before the customer does.
    async function registeredByStranger() {
      const email = `${uniqueName('customer')}@corp.example`;
      await createAccountStore(ctx.redis).create({ name: email, tier: 'free', passwordHash: await hashPassword('the stranger password') });
      return { email, accountId: (await createAccountStore(ctx.redis).byName(email))!.accountId };
    }

    it('when an operator creates a key for an email a portal user registered, then it is refused naming the id route, and no key reaches that account', async () => {
      const { email, accountId } = await registeredByStranger();
      const refused = await keys('create', '--tier', 'premium', '--account', email);
      expect(refused.code).to.equal(1);
      expect(refused.stdout).to.equal('');
      expect(refused.stderr).to.include('was registered in the developer portal').and.include('id:<account id>');
      expect(await createKeyStore(ctx.redis).listAccountKeys(accountId)).to.deep.equal([]);
    });

    it('when an operator changes the tier of, disables or enables such an email, then each is refused and the account is unchanged', async () => {
      const { email, accountId } = await registeredByStranger();
      for (const args of [
        ['tier', email, 'premium'],
        ['disable', email],
        ['enable', email],
      ]) {
        const refused = await keys(...args);
        expect(refused.code, args.join(' ')).to.equal(1);
        expect(refused.stderr, args.join(' ')).to.include('was registered in the developer portal');
      }
      const account = (await createAccountStore(ctx.redis).byId(accountId))!;
      expect(account).to.include({ tier: 'free', disabled: false });
    });

    it('when the operator names the portal account by its id, then the key, the tier and the disable reach it', async () => {
      const { accountId } = await registeredByStranger();
      const created = await keys('create', '--tier', 'free', '--account', `id:${accountId}`);
      expect(created.code, created.stderr).to.equal(0);
      const key = created.stdout.trim();
      expect(parseApiKey(key)!.accountId).to.equal(accountId);
      expect((await keys('tier', `id:${accountId}`, 'premium')).code).to.equal(0);
      expect((await request(ctx.app.url, '/v1/wallpapers', { key })).headers.get('X-RateLimit-Limit')).to.equal('10000');
      expect((await keys('disable', `id:${accountId}`)).code).to.equal(0);
      expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(403);
    });
  });

  it('when names hold terminal escapes or invisible characters, then list prints them escaped, in its table and its JSON', async () => {
    const store = createKeyStore(ctx.redis);
    const { accountId } = await store.createKey({ tier: 'free', account: uniqueName('ops') });
    // Written straight to the store, as a record made before names were checked could be.
    await store.createAccountKey(accountId, 'evil\u001b]0;owned\u0007\u009b2J\u200bname');
    for (const args of [['list'], ['list', '--json']]) {
      const listed = await keys(...args);
      expect(listed.code).to.equal(0);
      expect(hasInvisible(listed.stdout.replaceAll('\n', '')), args.join(' ')).to.equal(false);
      expect(listed.stdout, args.join(' ')).to.match(/evil(\\u\{1b\}|\\u001b)/);
    }
  });
});

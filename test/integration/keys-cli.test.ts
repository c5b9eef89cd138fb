import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseApiKey } from '../../src/access/api-key.js';
import { request, uniqueName } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const run = promisify(execFile);

async function keysWith(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/keys.ts', ...args], { env: { ...process.env, ...env }, timeout: 30_000 });
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
    expect(res.stderr).to.include(`account '${account}' is on tier 'free'`);
  });

  it('when an operator changes the tier and disables then enables the account, then the API follows each change', async () => {
    const account = uniqueName('ops');
    const key = (await keys('create', '--tier', 'free', '--account', account)).stdout.trim();
    expect((await keys('tier', account, 'premium')).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).headers.get('X-RateLimit-Limit')).to.equal('10000');
    expect((await keys('disable', account)).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(403);
    expect((await keys('enable', account)).code).to.equal(0);
    expect((await request(ctx.app.url, '/v1/wallpapers', { key })).status).to.equal(200);
    const unknown = await keys('disable', uniqueName('nobody'));
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.include('no account named');
    expect((await keys('tier', account, 'platinum')).code).to.equal(2);
  });
});

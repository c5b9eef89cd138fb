import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { useCatalogue } from './catalogue-context.js';
import { createKey } from '../support/harness.js';
import { runMirrorExample } from '../support/mirror-example.js';

const run = promisify(execFile);

describe('docs/examples, run against the stack', function () {
  this.timeout(90_000);
  const ctx = useCatalogue();
  const examples: [string, string, string[]][] = [
    ['curl', 'bash', ['docs/examples/curl.sh']],
    ['TypeScript client', process.execPath, ['--import', 'tsx', 'docs/examples/client.ts']],
    ['Python requests', 'python3', ['docs/examples/client.py']],
  ];

  for (const [name, command, args] of examples) {
    it(`when the ${name} example runs, then it lists, searches and walks the whole category`, async () => {
      const category = ctx.docs[0]!.category;
      const expected = ctx.docs.filter((d) => d.category === category).length;
      const { stdout } = await run(command, [...args, category], {
        env: { ...process.env, API_URL: ctx.app.url, API_KEY: ctx.key },
        timeout: 60_000,
      });
      expect(stdout).to.match(/^newest: \S/m);
      expect(stdout).to.match(/^search 'mountain': \d+ results$/m);
      expect(stdout).to.match(/^dark and blue: \d+ wallpapers$/m);
      expect(stdout).to.match(/^like \d+: [1-5] wallpapers$/m);
      expect(stdout).to.include(`walked ${expected} wallpapers in ${category}`);
    });
  }

  it('when the mirror example runs twice, then the first copies every wallpaper and the second applies nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpc-mirror-'));
    try {
      const state = join(dir, 'state.json');
      const mirror = () => runMirrorExample(state, ctx.app.url, ctx.key);
      expect((await mirror()).stdout).to.include(`applied ${ctx.docs.length} changes; the copy holds ${ctx.docs.length} wallpapers`);
      expect((await mirror()).stdout).to.include(`applied 0 changes; the copy holds ${ctx.docs.length} wallpapers`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/examples, when the quota is spent', function () {
  this.timeout(60_000);
  const ctx = useCatalogue({ rateLimit: { tiers: { free: 1000, premium: 10_000, tiny: 1 } } });

  for (const [name, command, args] of [
    ['curl', 'bash', ['docs/examples/curl.sh']],
    ['Python requests', 'python3', ['docs/examples/client.py']],
  ] as const) {
    it(`when the ${name} example meets a 429 whose Retry-After is the rest of the hour, then it stops at once saying so`, async () => {
      const { apiKey } = await createKey(ctx.redis, 'tiny');
      expect((await fetch(`${ctx.app.url}/v1/wallpapers?per_page=1`, { headers: { Authorization: `Bearer ${apiKey}` } })).status).to.equal(200);
      const started = Date.now();
      const failed = await run(command, [...args], { env: { ...process.env, API_URL: ctx.app.url, API_KEY: apiKey }, timeout: 30_000 }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).to.equal(1);
      expect(failed?.stderr).to.match(/quota spent: it frees up in \d{3,4}s/);
      expect(Date.now() - started).to.be.below(20_000);
    });
  }
});

describe('docs/examples, when the key is refused for failed authentications', function () {
  this.timeout(60_000);
  // A block of a minute, past the examples' one-minute bound on waiting: one that waited it out
  // would take a minute, then meet the 403 it hid.
  const ctx = useCatalogue({ rateLimit: { authFailureLimit: 1, authFailureWindowSeconds: 60 } });

  afterEach(async () => {
    // Every test here fails from 127.0.0.1: its count goes, so later tests' wrong keys get their 403.
    const counted = await ctx.redis.keys('wpc:auth-failures:*');
    if (counted.length > 0) await ctx.redis.del(...counted);
  });

  for (const [name, command, args] of [
    ['curl', 'bash', ['docs/examples/curl.sh']],
    ['Python requests', 'python3', ['docs/examples/client.py']],
  ] as const) {
    it(`when the ${name} example meets too_many_auth_failures, then it stops at once with 1, naming it`, async () => {
      const env = { ...process.env, API_URL: ctx.app.url, API_KEY: 'wpc_not_a_key' };
      for (let i = 0; i < 2; i++) await fetch(`${ctx.app.url}/v1/wallpapers`, { headers: { Authorization: 'Bearer wpc_not_a_key' } });
      const blocked = await fetch(`${ctx.app.url}/v1/wallpapers`, { headers: { Authorization: 'Bearer wpc_not_a_key' } });
      expect(blocked.status).to.equal(429);
      const started = Date.now();
      const failed = await run(command, [...args], { env, timeout: 30_000 }).then(
        () => null,
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      expect(failed?.code).to.equal(1);
      expect(failed?.stderr).to.include('too_many_auth_failures');
      expect(failed?.stdout, 'nothing printed for the answers it did not get').not.to.match(/^newest:/m);
      expect(Date.now() - started).to.be.below(20_000);
    });
  }
});

describe('docs/examples/mirror.py, when its quota runs out mid-walk', function () {
  this.timeout(90_000);
  const catalogue = () => [...generateWallpapers({ count: 250, seed: 12, imageBaseUrl: 'https://images.wallpapers.example' })];
  const ctx = useCatalogue({ rateLimit: { tiers: { free: 1000, premium: 10_000, two: 2 } } }, { docs: catalogue });

  it('when a run is cut short by the quota, then it saves how far it got and the next run applies only the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpc-mirror-'));
    try {
      const state = join(dir, 'state.json');
      const mirror = (key: string) => runMirrorExample(state, ctx.app.url, key);
      const { apiKey } = await createKey(ctx.redis, 'two');
      const cut = await mirror(apiKey).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(cut?.code, 'the quota ends the first run').to.equal(1);
      expect(cut?.stderr).to.include('QuotaExhausted');
      const saved = JSON.parse(readFileSync(state, 'utf8')) as { cursor: string | null; wallpapers: Record<string, unknown> };
      expect(Object.keys(saved.wallpapers)).to.have.length(200);
      expect(saved.cursor).to.be.a('string');
      expect((await mirror(ctx.key)).stdout).to.include('applied 50 changes; the copy holds 250 wallpapers');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startAdmissionFloor } from '../../bench/api/processes.js';
import { createKeyStore } from '../../src/access/store/key-store.js';
import { loadConfig } from '../../src/config.js';

const run = promisify(execFile);

async function hasWrk(): Promise<boolean> {
  try {
    await run('sh', ['-c', 'command -v wrk']);
    return true;
  } catch {
    return false;
  }
}

interface Measured {
  target: string;
  requests: number;
  errors: number;
  non2xx: number;
}

// Checks that the harness runs end to end; speed is measured by `npm run bench`, never asserted here.
describe('benchmark harness (smoke)', function () {
  this.timeout(180_000);
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('when run in smoke mode, then it writes a results table with requests on every target and no errors', async function () {
    if (!(await hasWrk())) this.skip();
    await run(process.execPath, ['--import', 'tsx', 'bench/api/run.ts', '--smoke', '--out', out], {
      env: process.env,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 170_000,
      killSignal: 'SIGTERM',
    });
    const results = JSON.parse(readFileSync(join(out, 'api-bench-500.json'), 'utf8')) as {
      scenarios: { scenario: string; measurements: Record<string, Measured>; roundTrips: Record<string, { perRequest: number }> }[];
      koa: Measured;
    };
    expect(results.scenarios.map((s) => s.scenario)).to.deep.equal(['list-page1', 'get-random']);
    for (const { scenario, measurements, roundTrips } of results.scenarios) {
      expect(Object.keys(measurements).sort(), scenario).to.deep.equal(['api', 'api-cached', 'es', 'es-no-rc']);
      for (const m of Object.values(measurements)) {
        expect(m.requests, `${scenario} ${m.target}`).to.be.greaterThan(0);
        expect(m.errors + m.non2xx, `${scenario} ${m.target}`).to.equal(0);
      }
      expect(roundTrips['api']?.perRequest, scenario).to.be.greaterThan(0);
    }
    expect(results.koa.requests).to.be.greaterThan(0);
    const table = readFileSync(join(out, 'api-bench-500.md'), 'utf8');
    expect(table).to.include('## Throughput').and.include('| list-page1 |').and.include('| get-random |');
    expect(readFileSync(join(out, 'api-bench-500.svg'), 'utf8')).to.match(/^<svg /);
  });

  it('when the floor is measured, then every target answers without failures and the floor admits each request in one EVALSHA', async function () {
    if (!(await hasWrk())) this.skip();
    const file = join(out, 'floor.md');
    await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/api/floor.ts',
        '--size',
        '500',
        '--scenarios',
        'get-random',
        '--rounds',
        '1',
        '--duration',
        '1',
        '--warmup',
        '0',
        '--out',
        file,
      ],
      { env: process.env, maxBuffer: 16 * 1024 * 1024, timeout: 170_000, killSignal: 'SIGTERM' },
    );
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| get-random |'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((cells) => cells[2])).to.deep.equal(['es', 'api', 'floor', 'koa']);
    for (const cells of rows) expect(Number(cells[3]), cells[2]).to.be.greaterThan(0);
    expect(readFileSync(file, 'utf8')).not.to.include('not a valid comparison');
    // The last column: EVALSHA calls per request, counted by Redis itself. Redis also counts the
    // requests in flight when wrk stops, which wrk does not: 1.01 in a 1 s run of a few thousand.
    const evalsha = Object.fromEntries(rows.map((cells) => [cells[2], cells.at(-2)]));
    expect(evalsha).to.deep.include({ es: '–', koa: '–' });
    for (const target of ['api', 'floor']) expect(Number(evalsha[target]), target).to.be.within(1, 1.05);
  });

  it('when a key goes through the floor, then each request is counted against its tier, with the API`s quota headers, and a malformed key is refused', async function () {
    const redisUrl = process.env['REDIS_URL'] as string;
    const redis = new Redis(redisUrl);
    const { apiKey } = await createKeyStore(redis).createKey({ tier: 'premium', account: `floor-${Date.now()}` });
    const bodyFile = join(out, 'floor-body.json');
    writeFileSync(bodyFile, '{"id":7,"title":"Fixed"}');
    const floor = await startAdmissionFloor(process.cwd(), bodyFile, redisUrl, apiKey);
    try {
      const { windowSeconds, tiers } = loadConfig(process.env).rateLimit;
      const ask = async () => {
        const res = await fetch(floor.url, { headers: { Authorization: `Bearer ${apiKey}` } });
        return {
          status: res.status,
          body: await res.text(),
          limit: res.headers.get('x-ratelimit-limit'),
          remaining: Number(res.headers.get('x-ratelimit-remaining')),
          policy: res.headers.get('ratelimit-policy'),
        };
      };
      const first = await ask();
      const second = await ask();
      expect(first).to.deep.include({
        status: 200,
        body: '{"id":7,"title":"Fixed"}',
        limit: String(tiers['premium']),
        policy: `"premium";q=${tiers['premium']};w=${windowSeconds}`,
      });
      expect(second.remaining).to.equal(first.remaining - 1);
      const malformed = await fetch(floor.url, { headers: { Authorization: 'Bearer wpc_not-a-key' } });
      expect(malformed.status).to.equal(401);
    } finally {
      await floor.stop();
      redis.disconnect();
    }
  });
});

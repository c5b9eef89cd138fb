import { expect } from 'chai';
import { createApp } from '../../../../src/app.js';
import { createLogger } from '../../../../src/infra/logger.js';
import { createMetrics } from '../../../../src/infra/metrics.js';
import { createAccountLanes } from '../../../../src/access/domain/account-lanes.js';
import { toWallpaper } from '../../../../src/wallpapers/wallpaper.js';
import { fixtureWallpapers } from '../../../support/fixtures.js';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { request } from '../../../support/harness.js';
import { type InMemoryServices, inMemoryServices } from '../../../support/in-memory-services.js';
import { sleep, until } from '../../../support/until.js';

const DOCS = fixtureWallpapers().map(toWallpaper);

// In memory, one account per key: `busy` and `other` are two accounts.
describe('fair share between accounts (MAX_IN_FLIGHT_PER_ACCOUNT, the HTTP edge in memory)', () => {
  let services: InMemoryServices;
  let server: Server;
  let url: string;
  let arrived: Map<string, IncomingMessage>;
  let started: number[];
  let open: () => void;
  let logged: Record<string, unknown>[];

  beforeEach(async () => {
    services = inMemoryServices(DOCS, { busy: { tier: 'free', limit: 100 }, other: { tier: 'free', limit: 100 }, spent: { tier: 'free', limit: 1 } });
    started = [];
    services.metrics = createMetrics();
    logged = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(
          ...chunk
            .toString('utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, unknown>),
        );
        done();
      },
    });
    services.logger = createLogger('info', sink);
    const opened = new Promise<void>((resolve) => (open = resolve));
    const getById = services.repository.getById.bind(services.repository);
    // Every get is held until the test opens the gate: requests in flight by construction.
    services.repository.getById = async (id: number) => {
      started.push(id);
      await opened;
      return getById(id);
    };
    services.lanes = createAccountLanes(2, 2);
    const app = createApp(services, { maxResultWindow: 10_000, trustProxyHops: 0 });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The server's own view of each request, to know when it has seen a client hang up.
    arrived = new Map();
    server.on('request', (req: IncomingMessage) => arrived.set(req.url!, req));
  });

  afterEach(async () => {
    open();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (id: number, key: string) => request(url, `/v1/wallpapers/${id}`, { key });

  it('when an account has its lanes taken, then its next request waits, another account is served at once, and every one is answered', async () => {
    const busy = [1, 2, 3].map((id) => get(id, 'busy'));
    expect(await until(async () => started.length === 2)).to.equal(true);
    await sleep(100);
    expect(started, 'the third request of the busy account waits for a lane').to.deep.equal([1, 2]);
    expect(await services.metrics!.registry.getSingleMetricAsString('wallpapers_account_lane_waiting')).to.match(
      /wallpapers_account_lane_waiting 1$/m,
    );
    const other = get(4, 'other');
    expect(await until(async () => started.length === 3)).to.equal(true);
    expect(started.at(-1), 'the other account went straight through').to.equal(4);
    open();
    const answers = await Promise.all([...busy, other]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
    expect(answers.map((a) => (a.body as { id: number }).id)).to.deep.equal([1, 2, 3, 4]);
    expect(services.access.used.get('busy'), 'the request that waited was counted once, like any other').to.equal(3);
    const metric = (name: string) => services.metrics!.registry.getSingleMetricAsString(name);
    expect(await metric('wallpapers_account_lane_waits_total')).to.match(/wallpapers_account_lane_waits_total 1$/m);
    expect(await metric('wallpapers_account_lane_waiting'), 'none waits any more').to.match(/wallpapers_account_lane_waiting 0$/m);
  });

  it('when an account has its lanes taken and its line full, then its next request is 429 with Retry-After, uncounted, and the rest are answered', async () => {
    const busy = [1, 2, 3, 4].map((id) => get(id, 'busy'));
    expect(await until(async () => services.access.used.get('busy') === 4)).to.equal(true);
    const refused = await get(5, 'busy');
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.include({ error: 'rate_limit_exceeded', status: 429 });
    expect((refused.body as { message: string }).message).to.equal(
      'Too many requests of this account at once: 2 in progress and 2 waiting. Send fewer at a time; please try again in 1 second',
    );
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.headers.get('x-ratelimit-remaining'), 'refused before its quota was asked').to.equal(null);
    expect(services.access.used.get('busy'), 'not counted').to.equal(4);
    const other = get(6, 'other');
    expect(await until(async () => started.includes(6)), 'another account goes straight through').to.equal(true);
    open();
    expect((await Promise.all([...busy, other])).map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(started).to.not.include(5);
    expect(await services.metrics!.registry.getSingleMetricAsString('wallpapers_rate_limit_rejections_total')).to.match(
      /wallpapers_rate_limit_rejections_total\{reason="account_busy"\} 1$/m,
    );
  });

  it('when an account whose quota is spent sends more at once than its line holds, then each is told its quota is spent, none that it is busy', async () => {
    // Places kept while the quota is asked had called a spent account busy, 132 times in 200 (review).
    open();
    expect((await get(7, 'spent')).status).to.equal(200);
    let answer!: () => void;
    const slowRedis = new Promise<void>((resolve) => (answer = resolve));
    const admit = services.access.admit.bind(services.access);
    services.access.admit = async (key) => {
      await slowRedis;
      return admit(key);
    };
    const burst = Array.from({ length: 10 }, (_, i) => get(10 + i, 'spent'));
    await sleep(100);
    answer();
    const answers = await Promise.all(burst);
    expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(429));
    expect(answers.map((a) => (a.body as { message: string }).message).filter((m) => m.startsWith('Too many requests'))).to.deep.equal([]);
  });

  it("when requests are refused for a full line and for a spent quota, then each one's access log line names its reason", async () => {
    const busy = [1, 2, 3, 4].map((id) => get(id, 'busy'));
    expect(await until(async () => services.access.used.get('busy') === 4)).to.equal(true);
    expect((await get(5, 'busy')).status).to.equal(429);
    open();
    await Promise.all(busy);
    expect((await get(7, 'spent')).status).to.equal(200);
    expect((await get(8, 'spent')).status).to.equal(429);
    const lines = logged.filter((line) => line['msg'] === 'request');
    const lineOf = (path: string) => lines.find((line) => line['path'] === path)!;
    expect(lineOf('/v1/wallpapers/5')).to.deep.include({ status: 429, refusal: 'account_busy' });
    expect(lineOf('/v1/wallpapers/8')).to.deep.include({ status: 429, refusal: 'quota' });
    for (const path of ['/v1/wallpapers/1', '/v1/wallpapers/7']) expect(lineOf(path), path).to.not.have.property('refusal');
  });

  it('when clients that hang up while waiting fill the line, then their places go to the next requests, which are answered', async () => {
    const held = [1, 2].map((id) => get(id, 'busy'));
    expect(await until(async () => started.length === 2)).to.equal(true);
    const leaving = new AbortController();
    const abandoned = [3, 4].map((id) =>
      fetch(`${url}/v1/wallpapers/${id}`, { headers: { Authorization: 'Bearer busy' }, signal: leaving.signal }).catch((err: Error) => err.name),
    );
    await until(async () => services.access.used.get('busy') === 4);
    leaving.abort();
    expect(await Promise.all(abandoned)).to.deep.equal(['AbortError', 'AbortError']);
    expect(await until(async () => [3, 4].every((id) => arrived.get(`/v1/wallpapers/${id}`)?.destroyed === true))).to.equal(true);
    const next = [5, 6].map((id) => get(id, 'busy'));
    await until(async () => services.access.used.get('busy') === 6);
    open();
    expect(
      (await Promise.all([...held, ...next])).map((a) => a.status),
      'none refused for a full line',
    ).to.deep.equal([200, 200, 200, 200]);
    expect(started, 'the abandoned requests never reached the repository').to.deep.equal([1, 2, 5, 6]);
  });

  it('when a client hangs up while its request waits, then no work is done for it and its lane goes to the next', async () => {
    const held = [1, 2].map((id) => get(id, 'busy'));
    expect(await until(async () => started.length === 2)).to.equal(true);
    const leaving = new AbortController();
    const abandoned = fetch(`${url}/v1/wallpapers/3`, { headers: { Authorization: 'Bearer busy' }, signal: leaving.signal }).catch(
      (err: Error) => err.name,
    );
    await until(async () => services.access.used.get('busy') === 3);
    leaving.abort();
    expect(await abandoned).to.equal('AbortError');
    expect(await until(async () => arrived.get('/v1/wallpapers/3')?.destroyed === true), 'the server saw the client hang up').to.equal(true);
    open();
    expect((await Promise.all(held)).map((a) => a.status)).to.deep.equal([200, 200]);
    const after = await get(5, 'busy');
    expect(after.status).to.equal(200);
    expect(started, 'the abandoned request never reached the repository').to.deep.equal([1, 2, 5]);
  });
});

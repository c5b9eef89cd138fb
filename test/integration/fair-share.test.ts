import { expect } from 'chai';
import { type EsGate, heldPageReads, startEsGate } from '../support/es-gate.js';
import { type RunningApp, connectEs, connectRedis, createKey, request, startApp, testConfig } from '../support/harness.js';
import { tally } from '../support/tally.js';
import { countedInRedis } from '../support/admission-log.js';
import { RedisServer } from '../support/redis-server.js';
import { sleep, until } from '../support/until.js';
import { useCatalogue } from './catalogue-context.js';

// Real Elasticsearch and Redis; between the API and Elasticsearch, a gate that holds every search
// until the test opens it, so requests are in flight by construction. The response cache is off
// (its freshness check is a search of its own), and the API has read its vocabulary before the
// gate holds. Each search asks another page, so none is joined to another.
describe('fair share between accounts (real Elasticsearch and Redis)', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();
  let gate: EsGate;
  let app: RunningApp | undefined;
  before(async () => {
    gate = await startEsGate(testConfig().elasticsearchUrl);
  });
  afterEach(async () => {
    gate.open();
    await app?.close();
    app = undefined;
  });
  after(() => gate.close());

  async function appWithLanes(lanes: number, waiting = 64) {
    const es = connectEs(gate.url);
    const config = testConfig({
      indexAlias: ctx.alias,
      maxInFlightPerAccount: lanes,
      maxWaitingPerAccount: waiting,
      responseCache: { ...testConfig().responseCache, maxBytes: 0 },
    });
    const running = await startApp({ config, es, redis: ctx.redis });
    app = {
      url: running.url,
      close: async () => {
        await running.close();
        await es.close();
      },
    };
    const busy = await createKey(ctx.redis, 'premium');
    const other = await createKey(ctx.redis, 'premium');
    expect((await request(running.url, '/v1/search?q=harbor', { key: other.apiKey })).status, 'warm-up').to.equal(200);
    const search = (key: string, word: string, page: number) => request(running.url, `/v1/search?q=${word}&per_page=1&page=${page}`, { key });
    return { url: running.url, busy, other, search };
  }

  it('when an account has as many searches in flight as it has lanes, then its next one waits outside Elasticsearch while another account is searched at once', async () => {
    const { busy, other, search } = await appWithLanes(2);
    gate.hold();
    const first = [1, 2].map((page) => search(busy.apiKey, 'mountain', page));
    expect(await until(async () => heldPageReads(gate, 'mountain') === 2)).to.equal(true);
    const third = search(busy.apiKey, 'mountain', 3);
    await sleep(500);
    expect(heldPageReads(gate, 'mountain'), "the busy account's third search is not in Elasticsearch").to.equal(2);
    const others = search(other.apiKey, 'aurora', 1);
    expect(await until(async () => heldPageReads(gate, 'aurora') === 1), 'the other account went straight through').to.equal(true);
    gate.open();
    const answers = await Promise.all([...first, third, others]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
    expect(answers.map((a) => a.body.meta.current_page)).to.deep.equal([1, 2, 3, 1]);
    expect(await countedInRedis(ctx.redis, busy.accountId), 'the search that waited was counted once').to.equal(3);
  });

  it('when an account has its lanes taken and its line full, then its next search is 429 at once, uncounted, while those in line are all answered', async () => {
    const { busy, other, search } = await appWithLanes(1, 2);
    gate.hold();
    const held = search(busy.apiKey, 'meadow', 1);
    expect(await until(async () => heldPageReads(gate, 'meadow') === 1)).to.equal(true);
    const inLine = [2, 3].map((page) => search(busy.apiKey, 'meadow', page));
    expect(await until(async () => (await countedInRedis(ctx.redis, busy.accountId)) === 3)).to.equal(true);
    const refused = await search(busy.apiKey, 'meadow', 4);
    expect(refused.status).to.equal(429);
    expect(refused.body.message).to.match(/^Too many requests of this account at once: 1 in progress and 2 waiting\./);
    expect(refused.headers.get('retry-after')).to.equal('1');
    expect(refused.headers.get('x-ratelimit-remaining'), 'refused before its quota was asked').to.equal(null);
    const others = search(other.apiKey, 'glacier', 1);
    expect(await until(async () => heldPageReads(gate, 'glacier') === 1), 'another account still goes straight through').to.equal(true);
    expect(heldPageReads(gate, 'meadow'), 'neither those in line nor the refused one reached Elasticsearch').to.equal(1);
    gate.open();
    const answers = await Promise.all([held, ...inLine, others]);
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
    expect(answers.map((a) => a.body.meta.current_page)).to.deep.equal([1, 2, 3, 1]);
    expect(await countedInRedis(ctx.redis, busy.accountId)).to.equal(3);
  });

  it('when a client sends many more requests at once than its account`s line holds, then those refused for the line are not counted', async () => {
    // A review's burst: 1,300 over 200 connections had spent 92 % of a free hour on refusals.
    const { busy, search } = await appWithLanes(4, 64);
    expect((await search(busy.apiKey, 'canyon', 1)).status, 'the key is one the process has served').to.equal(200);
    gate.hold();
    let answered = 0;
    const burst = Array.from({ length: 150 }, (_, i) => search(busy.apiKey, 'canyon', i + 2).finally(() => answered++));
    // Those refused for the line are answered at once; the rest are at work or wait for the gate.
    expect(await until(async () => answered >= 150 - 68)).to.equal(true);
    gate.open();
    const answers = await Promise.all(burst);
    const forTheLine = answers.filter((a) => a.status === 429 && /^Too many requests of this account at once/.test(a.body.message as string));
    expect(forTheLine.length).to.be.within(60, 150 - 68);
    for (const refused of forTheLine) expect(refused.headers.get('x-ratelimit-remaining')).to.equal(null);
    expect(await countedInRedis(ctx.redis, busy.accountId), 'the warm-up and every request let in').to.equal(1 + 150 - forTheLine.length);
  });

  it('when a key new to the process sends more than its line holds at once, then its first request alone asks Redis, and the rest are refused at the line uncounted', async () => {
    // A key's account is known only from Redis's answer. Had every request of the burst gone to
    // Redis before that answer came (as when Redis is slow on a loaded machine), those past the
    // line were refused after their quota was counted. Here a private Redis is stopped until the
    // whole burst has arrived.
    const server = await RedisServer.start();
    const redis = connectRedis(server.url, 30_000);
    try {
      await new Promise((resolve) => redis.once('ready', resolve));
      const config = testConfig(
        { indexAlias: ctx.alias, maxInFlightPerAccount: 4, maxWaitingPerAccount: 64 },
        { tiers: { free: 100, premium: 400 } },
      );
      const running = await startApp({ config, es: ctx.es, redis });
      app = running;
      const warm = await createKey(redis, 'premium');
      expect((await request(running.url, '/v1/wallpapers/1', { key: warm.apiKey })).status, 'warm-up').to.equal(200);
      const fresh = await createKey(redis, 'free');
      server.pause();
      const burst = Array.from({ length: 150 }, () => request(running.url, '/v1/wallpapers/1', { key: fresh.apiKey }));
      expect(await until(async () => redis.commandQueue.length >= 1, 20_000), 'the first admission sent to Redis').to.equal(true);
      await sleep(500);
      expect(redis.commandQueue.length, 'the rest wait for its answer').to.equal(1);
      server.resume();
      const answers = await Promise.all(burst);
      const forTheLine = answers.filter((a) => a.status === 429 && /^Too many requests of this account at once/.test(a.body.message as string));
      const served = answers.filter((a) => a.status === 200);
      expect(served.length, `the lanes and the line; ${tally(answers)}`).to.equal(4 + 64);
      expect(forTheLine, `the rest; ${tally(answers)}`).to.have.length(150 - 68);
      for (const refused of forTheLine) {
        expect(refused.headers.get('retry-after')).to.equal('1');
        expect(refused.headers.get('x-ratelimit-remaining'), 'refused before its quota was asked').to.equal(null);
      }
      expect(await countedInRedis(redis, fresh.accountId), 'counted: those served only').to.equal(68);
    } finally {
      server.resume();
      await app?.close();
      app = undefined;
      redis.disconnect();
      await server.destroy();
    }
  });

  it('when MAX_IN_FLIGHT_PER_ACCOUNT is 0, then an account has no lanes: every search of it reaches Elasticsearch at once', async () => {
    const { busy, search } = await appWithLanes(0);
    gate.hold();
    const all = [1, 2, 3, 4, 5, 6].map((page) => search(busy.apiKey, 'forest', page));
    expect(await until(async () => heldPageReads(gate, 'forest') === 6)).to.equal(true);
    gate.open();
    expect((await Promise.all(all)).map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
  });
});

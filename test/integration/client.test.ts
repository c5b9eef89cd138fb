import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, QuotaExhausted, type Wallpaper, type WallpaperList, createWallpaperClient } from '../../clients/typescript/src/index.js';
import { createKey, startApp } from '../support/harness.js';
import { hungServer } from '../support/hung-server.js';
import { useCatalogue } from './catalogue-context.js';

describe('the TypeScript client against the real stack', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();
  const client = (apiKey = ctx.key, extra = {}) => createWallpaperClient({ baseUrl: ctx.app.url, apiKey, ...extra });

  it('when a category is walked with all(), then every wallpaper of it comes once, across pages, by cursor', async () => {
    const category = ctx.docs[0]!.category as Wallpaper['category'];
    const expected = ctx.docs.filter((d) => d.category === category).map((d) => d.id);
    expect(expected.length).to.be.greaterThan(3);
    const seen: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ category, per_page: 2, page: 1 })) seen.push(wallpaper.id);
    expect(seen).to.have.length(expected.length);
    expect(new Set(seen)).to.deep.equal(new Set(expected));
  });

  it('when all() is given a page or a cursor, then the walk starts there and goes on to the end', async () => {
    const category = ctx.docs[0]!.category as Wallpaper['category'];
    const whole: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ category, per_page: 2 })) whole.push(wallpaper.id);
    expect(whole.length).to.be.greaterThan(4);
    const fromPage: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ category, per_page: 2, page: 2 })) fromPage.push(wallpaper.id);
    expect(fromPage).to.deep.equal(whole.slice(2));
    const first = await client().wallpapers.list({ category, per_page: 2 });
    const fromCursor: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ category, per_page: 2, cursor: first.meta.next_cursor! })) fromCursor.push(wallpaper.id);
    expect(fromCursor).to.deep.equal(whole.slice(2));
  });

  it('when all() names no page size, then it asks pages of 100, and a walk resumed keeps the API’s', async () => {
    // The API's 20 had made a whole walk cost five times the requests of the quota (helper-147).
    const pages: WallpaperList[] = [];
    const whole: number[] = [];
    for await (const wallpaper of client().wallpapers.all({}, { onPage: (page) => pages.push(page) })) whole.push(wallpaper.id);
    expect(pages.map((page) => page.meta.per_page)).to.deep.equal(pages.map(() => 100));
    expect(whole).to.have.length(pages[0]!.meta.total_items);
    // A cursor is bound to the page size it was issued for: one of the API's default goes on with it.
    const first = await client().wallpapers.list();
    const resumed: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ cursor: first.meta.next_cursor! })) resumed.push(wallpaper.id);
    expect(resumed).to.deep.equal(whole.slice(20));
  });

  it('when all() is of ids, then it sends no page size, which the API refuses beside them', async () => {
    const ids = ctx.docs
      .slice(0, 3)
      .map((doc) => doc.id)
      .reverse();
    const seen: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ ids })) seen.push(wallpaper.id);
    expect(seen).to.deep.equal(ids);
  });

  it('when a walk stops part way, then the cursor of the last page onPage saw resumes it, in its own page size without per_page', async () => {
    const whole: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ per_page: 7 })) whole.push(wallpaper.id);
    const pages: WallpaperList[] = [];
    const first: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ per_page: 7 }, { onPage: (page) => pages.push(page) })) {
      first.push(wallpaper.id);
      if (first.length === 7) break;
    }
    const resumed: number[] = [];
    const resumedPages: WallpaperList[] = [];
    const asked: URL[] = [];
    const recording = client(ctx.key, {
      fetch: (input: Request | URL | string, init?: RequestInit) => {
        asked.push(new URL(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    const from = { cursor: pages.at(-1)!.meta.next_cursor! };
    for await (const wallpaper of recording.wallpapers.all(from, { onPage: (page) => resumedPages.push(page) })) resumed.push(wallpaper.id);
    expect([...first, ...resumed]).to.deep.equal(whole);
    expect(new Set(resumedPages.map((page) => page.meta.per_page))).to.deep.equal(new Set([7]));
    // Later pages name the size, for an API instance older than cursors that carry it.
    expect(asked.length).to.be.greaterThan(2);
    expect(asked.map((url) => url.searchParams.get('per_page'))).to.deep.equal([null, ...asked.slice(1).map(() => '7')]);
  });

  it('when filters are given as lists, then they are sent comma-separated and OR-ed', async () => {
    const [a, b] = [...new Set(ctx.docs.map((d) => d.category))] as Wallpaper['category'][];
    const page = await client().wallpapers.list({ category: [a!, b!], per_page: 1 });
    expect(page.meta.total_items).to.equal(ctx.docs.filter((d) => d.category === a || d.category === b).length);
  });

  it('when likes of a wallpaper are asked, then they come without it, with what include asks', async () => {
    const seed = ctx.docs[0]!;
    const page = await client().wallpapers.similar(seed.id, { per_page: 3, include: 'tags' });
    expect(page.data.length).to.be.within(1, 3);
    expect(page.data.map((w) => w.id)).not.to.include(seed.id);
    expect(page.data[0]!.tags).to.be.an('array');
    const missing = await client()
      .wallpapers.similar(999_999_999)
      .catch((error: unknown) => error);
    expect(missing).to.be.instanceOf(ApiError).and.include({ status: 404, error: 'not_found' });
  });

  it('when the change feed is followed to its end, then every wallpaper comes once, and a saved cursor resumes with nothing new', async () => {
    const seen: number[] = [];
    let saved: string | undefined;
    for await (const { change, cursor } of client().changes.follow({ per_page: 4, untilEnd: true })) {
      expect(change.change).to.equal('upsert');
      seen.push(change.id);
      saved = cursor;
    }
    expect(seen.sort((a, b) => a - b)).to.deep.equal(ctx.docs.map((d) => d.id).sort((a, b) => a - b));
    const again = [];
    for await (const followed of client().changes.follow({ cursor: saved!, untilEnd: true })) again.push(followed);
    expect(again).to.deep.equal([]);
  });

  it('when a random order is walked without a seed, then the walk keeps the seed the API picked, and every wallpaper comes once', async () => {
    const category = ctx.docs[0]!.category as Wallpaper['category'];
    const expected = ctx.docs.filter((d) => d.category === category).map((d) => d.id);
    const seen: number[] = [];
    for await (const wallpaper of client().wallpapers.all({ category, sort: 'random', per_page: 2 })) seen.push(wallpaper.id);
    expect(seen.sort((a, b) => a - b)).to.deep.equal(expected.sort((a, b) => a - b));
    let found = 0;
    for await (const _ of client().search.all({ q: ctx.docs[0]!.title.split(' ')[0]!, sort: 'random', per_page: 1 })) found++;
    expect(found).to.be.greaterThan(1);
  });

  it('when a follower stops in the middle of a page and resumes from the cursor it saved, then no change is lost', async () => {
    const applied: number[] = [];
    let saved: string | undefined;
    for await (const { change, cursor } of client().changes.follow({ per_page: 4, untilEnd: true })) {
      applied.push(change.id);
      saved = cursor;
      if (applied.length === 7) break;
    }
    for await (const { change } of client().changes.follow({ per_page: 4, untilEnd: true, ...(saved ? { cursor: saved } : {}) }))
      applied.push(change.id);
    expect([...new Set(applied)].sort((a, b) => a - b)).to.deep.equal(ctx.docs.map((d) => d.id).sort((a, b) => a - b));
    expect(applied.length - ctx.docs.length, 'at most the rest of a page again').to.be.within(0, 3);
  });

  it('when an optional filter is passed through undefined, then it is left out, not sent as "undefined"', async () => {
    const options: { category?: Wallpaper['category']; tags?: string[] } = {};
    const page = await client().wallpapers.list({ category: options.category, tags: options.tags, per_page: 1 });
    expect(page.meta.total_items).to.equal(ctx.docs.length);
    const refused = await client()
      .search.suggest('sky', 0)
      .catch((e: unknown) => e);
    expect(refused, 'a limit of 0 is sent, and refused').to.include({ status: 400 });
  });

  it('when the feed is followed past its end without untilEnd, then it polls until the signal aborts', async () => {
    const controller = new AbortController();
    const pages: number[] = [];
    const counting = createWallpaperClient({
      baseUrl: ctx.app.url,
      apiKey: ctx.key,
      // Stopped by the count of asks, not by a timer: a loaded machine had taken 250 ms for two.
      fetch: async (input, init) => {
        pages.push(performance.now());
        const response = await fetch(input, init);
        if (pages.length === 4) controller.abort();
        return response;
      },
    });
    const feedPages = Math.ceil(ctx.docs.length / 100);
    for await (const _ of counting.changes.follow({ per_page: 100, pollMs: 50, signal: controller.signal })) void _;
    expect(feedPages, 'the feed ends before the asks stop').to.be.below(3);
    expect(pages).to.have.lengthOf(4);
    // The asks past the end come a pollMs apart (less a timer's early fraction of a millisecond).
    expect(pages[3]! - pages[2]!).to.be.at.least(49);
  });

  it('when a search is walked to the end, then its pages add up to its total', async () => {
    const first = await client().search.query({ q: ctx.docs[0]!.title.split(' ')[0]!, per_page: 1 });
    let count = 0;
    for await (const _ of client().search.all({ q: ctx.docs[0]!.title.split(' ')[0]!, per_page: 3 })) count++;
    expect(count).to.equal(first.meta.total_items);
  });

  it('when the API refuses a request, then the client throws an ApiError with its status, error and message', async () => {
    const err = await client()
      .wallpapers.get(9_007_199_254_740_991)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).to.be.instanceOf(ApiError);
    expect(err).to.include({ status: 404, error: 'not_found' });
    const bad = await client()
      .wallpapers.list({ per_page: 0 })
      .catch((e: unknown) => e);
    expect(bad).to.include({ status: 400, error: 'invalid_request' });
    expect((bad as ApiError).message).to.include('per_page');
  });

  describe('on a tier of 3 requests a 2 s window', () => {
    let app: Awaited<ReturnType<typeof startApp>>;
    before(async () => {
      app = await startApp({
        config: { ...ctx.config, rateLimit: { ...ctx.config.rateLimit, tiers: { ...ctx.config.rateLimit.tiers, tiny: 3 }, windowSeconds: 2 } },
        es: ctx.es,
        redis: ctx.redis,
      });
    });
    after(() => app.close());

    it('when another client spent the quota and it meets a 429, then it waits out Retry-After and succeeds', async () => {
      const { apiKey } = await createKey(ctx.redis, 'tiny');
      for (let i = 0; i < 3; i++) await fetch(`${app.url}/v1/wallpapers/${ctx.docs[0]!.id}`, { headers: { Authorization: `Bearer ${apiKey}` } });
      const waits: string[] = [];
      const tiny = createWallpaperClient({ baseUrl: app.url, apiKey, onWait: (_ms, reason) => waits.push(reason) });
      expect((await tiny.wallpapers.get(ctx.docs[0]!.id)).id).to.equal(ctx.docs[0]!.id);
      expect(waits).to.include('rate-limited');
    });

    it('when its own requests spend the quota, then it waits for the reset instead of sending one that would get 429', async () => {
      const { apiKey } = await createKey(ctx.redis, 'tiny');
      const statuses: number[] = [];
      const observed: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      };
      const tiny = createWallpaperClient({ baseUrl: app.url, apiKey, fetch: observed, paceBelow: 0 });
      for (let i = 0; i < 5; i++) await tiny.wallpapers.get(ctx.docs[0]!.id);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200]);
    });

    it('when the quota is spent for longer than it may wait, then it throws QuotaExhausted at once, saying when it comes back', async () => {
      const { apiKey } = await createKey(ctx.redis, 'tiny');
      for (let i = 0; i < 3; i++) await fetch(`${app.url}/v1/wallpapers/${ctx.docs[0]!.id}`, { headers: { Authorization: `Bearer ${apiKey}` } });
      const waits: number[] = [];
      const impatient = createWallpaperClient({ baseUrl: app.url, apiKey, maxWaitMs: 100, onWait: (ms) => waits.push(ms) });
      const err = await impatient.wallpapers.get(ctx.docs[0]!.id).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(QuotaExhausted).and.include({ status: 429, error: 'rate_limit_exceeded' });
      expect((err as QuotaExhausted).retryAfter).to.be.within(1, 2);
      expect(waits).to.deep.equal([]);
      const again = await impatient.wallpapers.get(ctx.docs[0]!.id).catch((e: unknown) => e);
      expect(again, 'and the next call, from what the headers said, without asking').to.be.instanceOf(QuotaExhausted);
    });

    it('when Remaining runs low, then it spreads its requests until the reset instead of meeting a 429', async () => {
      const { apiKey } = await createKey(ctx.redis, 'tiny');
      const waits: string[] = [];
      const statuses: number[] = [];
      const observed: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        statuses.push(response.status);
        return response;
      };
      const paced = createWallpaperClient({ baseUrl: app.url, apiKey, fetch: observed, paceBelow: 0.5, onWait: (_ms, reason) => waits.push(reason) });
      for (let i = 0; i < 4; i++) await paced.wallpapers.get(ctx.docs[0]!.id);
      expect(waits).to.include('pace');
      expect(statuses.filter((s) => s === 429)).to.have.length.at.most(1);
    });
  });

  describe('behind a front that answers 503 at first', () => {
    let front: Server;
    let url: string;
    let refusals = 0;
    before(async () => {
      front = createServer((req, res) => {
        if (refusals > 0) {
          refusals--;
          res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' });
          res.end(JSON.stringify({ error: 'service_unavailable', message: 'try again', status: 503 }));
          return;
        }
        void fetch(`${ctx.app.url}${req.url}`, { headers: { Authorization: req.headers.authorization ?? '' } }).then(async (upstream) => {
          res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
          res.end(Buffer.from(await upstream.arrayBuffer()));
        });
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    });
    after(() => new Promise((resolve) => front.close(resolve)));

    it('when two 503s come first, then it retries with backoff and returns the page', async () => {
      refusals = 2;
      const waits: number[] = [];
      const page = await createWallpaperClient({ baseUrl: url, apiKey: ctx.key, backoffMs: 10, onWait: (ms) => waits.push(ms) }).wallpapers.list({
        per_page: 1,
      });
      expect(page.data).to.have.length(1);
      expect(waits).to.have.length(2);
    });

    it('when a 429 has no Retry-After, then it waits a second before asking again, not none', async () => {
      const waits: number[] = [];
      let answered = 0;
      const noHeader: typeof fetch = async (input, init) => {
        if (answered++ === 0) return new Response(JSON.stringify({ error: 'rate_limit_exceeded', message: 'busy', status: 429 }), { status: 429 });
        return fetch(input, init);
      };
      const page = await createWallpaperClient({ baseUrl: url, apiKey: ctx.key, fetch: noHeader, onWait: (ms) => waits.push(ms) }).wallpapers.list({
        per_page: 1,
      });
      expect(page.data).to.have.length(1);
      expect(waits).to.have.length(1);
      expect(waits[0]).to.be.within(1000, 1250);
    });

    it('when 503s outlast its retries, then it gives up with an ApiError 503', async () => {
      refusals = 10;
      const err = await createWallpaperClient({ baseUrl: url, apiKey: ctx.key, backoffMs: 1, retries: 2 })
        .wallpapers.list()
        .catch((e: unknown) => e);
      expect(err).to.include({ status: 503, error: 'service_unavailable' });
      refusals = 0;
    });
  });

  describe('in front of an API that stalls', () => {
    it('when the first answer stalls in the middle of its body, then that attempt times out, is retried, and the page comes', async () => {
      let asked = 0;
      const stalled = new Set<ReturnType<typeof setTimeout>>();
      const front = createServer((req, res) => {
        if (asked++ === 0) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"data": [');
          stalled.add(setTimeout(() => res.end(), 3_000));
          return;
        }
        void fetch(`${ctx.app.url}${req.url}`, { headers: { Authorization: req.headers.authorization ?? '' } }).then(async (upstream) => {
          res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
          res.end(Buffer.from(await upstream.arrayBuffer()));
        });
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
        const waits: string[] = [];
        const page = await createWallpaperClient({
          baseUrl: url,
          apiKey: ctx.key,
          timeoutMs: 300,
          backoffMs: 10,
          onWait: (_ms, reason) => waits.push(reason),
        }).wallpapers.list({
          per_page: 1,
        });
        expect(page.data).to.have.length(1);
        expect(asked).to.equal(2);
        expect(waits).to.deep.equal(['retry']);
      } finally {
        for (const timer of stalled) clearTimeout(timer);
        front.closeAllConnections();
        await new Promise((resolve) => front.close(resolve));
      }
    });
  });

  describe('in front of an API that never answers', () => {
    it('when an attempt outlasts timeoutMs, then it is retried as a network error and the call fails in bounded time', async () => {
      const hung = await hungServer();
      try {
        const started = Date.now();
        const waits: string[] = [];
        const err = await createWallpaperClient({
          baseUrl: hung.url,
          apiKey: ctx.key,
          timeoutMs: 200,
          retries: 1,
          backoffMs: 10,
          onWait: (_ms, reason) => waits.push(reason),
        })
          .wallpapers.list()
          .catch((e: unknown) => e);
        expect(err).to.be.instanceOf(Error).and.not.instanceOf(ApiError);
        expect(waits).to.deep.equal(['retry']);
        expect(Date.now() - started).to.be.below(5_000);
      } finally {
        await hung.close();
      }
    });
  });

  it('when the feed is polled many times under one signal, then each wait takes its abort listener away again', async () => {
    const controller = new AbortController();
    let polls = 0;
    let listeners = -1;
    // At the twelfth poll, look while its wait is under way, then stop.
    const counting = createWallpaperClient({
      baseUrl: ctx.app.url,
      apiKey: ctx.key,
      fetch: (input, init) => {
        if (++polls === 12) {
          setTimeout(() => {
            listeners = getEventListeners(controller.signal, 'abort').length;
            controller.abort();
          }, 150);
        }
        return fetch(input, init);
      },
    });
    for await (const _ of counting.changes.follow({ per_page: 100, pollMs: 300, signal: controller.signal })) void _;
    expect(polls).to.equal(12);
    expect(listeners, 'one wait at most is listening').to.be.at.most(1);
  });
});

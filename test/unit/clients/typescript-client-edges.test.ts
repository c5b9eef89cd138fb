import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ApiError, QuotaExhausted, createWallpaperClient } from '../../../clients/typescript/src/index.js';
import { retryAfterMs } from '../../../clients/typescript/src/paced-fetch.js';

const KEY = 'wpc_unit';
const page = (nextCursor: string | null = null, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ data: [], meta: { next_cursor: nextCursor, has_more: nextCursor !== null } }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
const refusal = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: status === 429 ? 'rate_limit_exceeded' : 'service_unavailable', message: 'm', status }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/**
 * A fetch that answers from `answer`, recording the URLs asked. It holds every request it was
 * given, as a real fetch holds one in flight: a Request's signal follows the caller's only through
 * a weak reference, so a request nothing holds can be collected while it waits, and its abort never
 * arrives (the test that waits on `hung` timed out in CI whenever a collection came first).
 */
function fake(answer: (request: Request, asked: number) => Response | Promise<Response>) {
  const urls: string[] = [];
  const inFlight: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    inFlight.push(request);
    urls.push(request.url);
    return answer(request, urls.length);
  };
  return { fetch, urls };
}

// A server that never answers, as fetch meets it: the call ends when its signal aborts, at once when
// it came aborted (under load the caller's abort had come before the request, and the call never ended).
const hung = (request: Request) =>
  new Promise<Response>((_, reject) => {
    const fail = () => reject(request.signal.reason as Error);
    if (request.signal.aborted) fail();
    else request.signal.addEventListener('abort', fail, { once: true });
  });

/** A full collection now, as one may come at any moment under load. */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

/** Reads a walk or a follow to its end. */
async function drained(items: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of items) void _;
}

describe('the TypeScript client, against answers the API should not give', () => {
  describe('a call`s signal', () => {
    it('when a call waits on a server that never answers and its signal aborts, then it rejects at once with the reason, and asks nothing more', async () => {
      const { fetch, urls } = fake(hung);
      const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch, timeoutMs: 2000, backoffMs: 1 });
      const stop = new AbortController();
      setTimeout(collect, 25);
      setTimeout(() => stop.abort(new Error('stopped by the caller')), 50);
      const started = performance.now();
      const err = await rejection(client.wallpapers.list({}, { signal: stop.signal }));
      expect((err as Error).message).to.equal('stopped by the caller');
      expect(performance.now() - started).to.be.below(1000);
      expect(urls).to.have.length(1);
    });

    it('when a call waits out a 429`s Retry-After and its signal aborts, then it rejects at once', async () => {
      const { fetch, urls } = fake(() => refusal(429, { 'Retry-After': '20' }));
      const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
      const stop = new AbortController();
      setTimeout(() => stop.abort(new Error('stopped')), 50);
      const started = performance.now();
      expect(((await rejection(client.wallpapers.get(1, { signal: stop.signal }))) as Error).message).to.equal('stopped');
      expect(performance.now() - started).to.be.below(1000);
      expect(urls).to.have.length(1);
    });

    it('when a walk`s signal aborts between pages, then the walk rejects and asks no further page', async () => {
      const { fetch, urls } = fake(async (_request, asked) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return page(`c${asked}`);
      });
      const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
      const stop = new AbortController();
      const walked = (async () => {
        for await (const _ of client.wallpapers.all({}, { signal: stop.signal })) void _;
      })();
      await new Promise((resolve) => setTimeout(resolve, 20));
      stop.abort(new Error('enough'));
      const asked = urls.length;
      expect(((await rejection(walked)) as Error).message).to.equal('enough');
      expect(urls.length).to.be.at.most(asked + 1);
    });
  });

  it('when calls are made at once near the end of the quota, then they take turns and meet no 429', async function () {
    this.timeout(20_000);
    // An exact sliding window of 10 a second, with the API's headers.
    const limit = 10;
    const windowMs = 1000;
    const admitted: number[] = [];
    let refused = 0;
    const { fetch } = fake(() => {
      const now = Date.now();
      while (admitted.length > 0 && admitted[0]! <= now - windowMs) admitted.shift();
      const resetAt = (admitted[0] ?? now) + windowMs;
      const headers = { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)) };
      if (admitted.length >= limit) {
        refused++;
        return refusal(429, { ...headers, 'X-RateLimit-Remaining': '0', 'Retry-After': String(Math.ceil((resetAt - now) / 1000)) });
      }
      admitted.push(now);
      return page(null, { ...headers, 'X-RateLimit-Remaining': String(limit - admitted.length) });
    });
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 6; i++) await client.wallpapers.list();
      }),
    );
    expect(refused).to.equal(0);
  });

  it('when a filter is null, or a list holds null or undefined, then it is left out, not sent as text', async () => {
    const { fetch, urls } = fake(() => page());
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
    await client.wallpapers.list({ tags: null, category: ['space', undefined, null], color: [null] } as never);
    const query = new URL(urls[0]!).searchParams;
    expect([...query.keys()]).to.deep.equal(['category']);
    expect(query.get('category')).to.equal('space');
  });

  it('when a 503 says it lasts longer than the client may wait, then it is thrown at once, not asked again', async () => {
    const waits: number[] = [];
    const { fetch, urls } = fake(() => refusal(503, { 'Retry-After': '3600' }));
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch, onWait: (ms) => waits.push(ms) });
    expect(await rejection(client.wallpapers.list()))
      .to.be.instanceOf(ApiError)
      .and.include({ status: 503 });
    expect(urls).to.have.length(1);
    expect(waits).to.deep.equal([]);
  });

  it('when 429s outlast the waits the client may make, then it throws QuotaExhausted with the last wait, as for a wait too long', async () => {
    const waits: string[] = [];
    const { fetch, urls } = fake(() => refusal(429, { 'Retry-After': '0' }));
    const client = createWallpaperClient({
      baseUrl: 'http://api.test',
      apiKey: KEY,
      fetch,
      rateLimitWaits: 2,
      onWait: (_ms, why) => waits.push(why),
    });
    const thrown = await rejection(client.wallpapers.list());
    expect(thrown).to.be.instanceOf(QuotaExhausted).and.include({ status: 429, error: 'rate_limit_exceeded', retryAfter: 0 });
    expect(urls).to.have.length(3);
    expect(waits).to.deep.equal(['rate-limited', 'rate-limited']);
  });

  it('when Retry-After is an HTTP date, then it is waited until; when it is neither seconds nor a date, then it is no answer', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    expect(retryAfterMs('Sun, 29 Nov 2026 12:00:02 GMT', now)).to.equal(2000);
    expect(retryAfterMs('Sun, 29 Nov 2026 11:00:00 GMT', now)).to.equal(0);
    expect(retryAfterMs(' 3 ', now)).to.equal(3000);
    expect(retryAfterMs('Sunday, 29-Nov-26 12:00:04 GMT', now), 'the obsolete RFC 850 form').to.equal(4000);
    expect(retryAfterMs('Sun Nov 29 12:00:05 2026', now), 'and asctime, which is UTC').to.equal(5000);
    for (const header of [null, '', 'Infinity', '-1', '1.5', '1e3', 'soon', 'in 5', 'A 1', 'Retry 10', 'x 3000'])
      expect(retryAfterMs(header, now), String(header)).to.equal(null);
  });

  it('when the API gives back the cursor it was asked with, then a walk stops with an ApiError rather than ask for ever', async () => {
    const { fetch, urls } = fake(() => page('same'));
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
    const err = await rejection(drained(client.search.all({ q: 'sky' })));
    expect(err).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
    expect(urls).to.have.length(2);
  });

  it('when the feed says it has more but gives back the cursor it was asked with, then following it stops with an ApiError', async () => {
    const { fetch, urls } = fake(
      () =>
        new Response(JSON.stringify({ data: [], meta: { next_cursor: 'same', has_more: true } }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
    const err = await rejection(drained(client.changes.follow({ cursor: 'same' })));
    expect(err).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
    expect(urls).to.have.length(1);
  });

  it('when cursors lead back to a page read before (a, b, a), then a walk and following the feed stop with an ApiError', async () => {
    // After 20 pages an end, so that a walk that does not notice ends rather than hangs.
    const cycle = (body: (next: string | null) => unknown) =>
      fake((request, asked) => {
        const next = asked > 20 ? null : new URL(request.url).searchParams.get('cursor') === 'a' ? 'b' : 'a';
        return new Response(JSON.stringify(body(next)), { status: 200, headers: { 'Content-Type': 'application/json' } });
      });
    const listed = cycle((next) => ({ data: [], meta: { next_cursor: next } }));
    const walk = await rejection(drained(createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: listed.fetch }).wallpapers.all()));
    expect(walk).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
    expect(listed.urls).to.have.length(3);
    const feed = cycle((next) => ({ data: [], meta: { next_cursor: next ?? 'end', has_more: next !== null } }));
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch: feed.fetch });
    const followed = await rejection(drained(client.changes.follow({ untilEnd: true })));
    expect(followed).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
    expect(feed.urls).to.have.length(3);
  });

  it('when a walk goes round under new cursors (the same page again, empty pages with more), or a page is no page, then it stops with an ApiError', async () => {
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    const change = { id: 1, change: 'delete', at: '2026-11-30T00:00:00Z' };
    for (const [name, answer, walk] of [
      ['the same page', (asked: number) => json({ data: [change], meta: { next_cursor: `c${asked}`, has_more: asked < 20 } }), 'follow'],
      ['empty pages with more', (asked: number) => json({ data: [], meta: { next_cursor: `c${asked}`, has_more: asked < 20 } }), 'follow'],
      ['a cursor that is an object', () => json({ data: [change], meta: { next_cursor: { o: 1 }, has_more: true } }), 'follow'],
      ['a cursor that is an object', () => json({ data: [{ id: 1 }], meta: { next_cursor: { o: 1 } } }), 'all'],
      ['no meta', () => json({ data: [] }), 'all'],
      ['data that is no list', () => json({ data: {}, meta: {} }), 'all'],
      ['an item that is null', () => json({ data: [null], meta: { next_cursor: null } }), 'all'],
      ['a change that is null', () => json({ data: [null], meta: { next_cursor: 'c', has_more: false } }), 'follow'],
    ] as const) {
      const { fetch, urls } = fake((_request, asked) => answer(asked));
      const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
      const err = await rejection(drained(walk === 'all' ? client.wallpapers.all() : client.changes.follow({ untilEnd: true })));
      expect(err, name).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
      expect(urls.length, name).to.be.at.most(3);
    }
  });

  it('when a list walk meets an item again as a whole page (an import moved it), then it goes on to the end', async () => {
    const order = [1, 2, 3, 1, 4, 5];
    const { fetch } = fake((request) => {
      const at = Number(new URL(request.url).searchParams.get('cursor') ?? '0');
      const body = { data: [{ id: order[at] }], meta: { next_cursor: at + 1 < order.length ? String(at + 1) : null } };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
    const ids: number[] = [];
    for await (const wallpaper of client.wallpapers.all({ per_page: 1 })) ids.push(wallpaper.id);
    expect(ids).to.deep.equal(order);
  });

  for (const [name, body, type] of [
    ['a page of HTML (a captive portal)', '<html>sign in to the wifi</html>', 'text/html'],
    ['cut JSON', '{"data": [', 'application/json'],
    ['null', 'null', 'application/json'],
  ] as const) {
    it(`when a 200 carries ${name}, then the call fails with an ApiError, not a SyntaxError or null as data`, async () => {
      const { fetch } = fake(() => new Response(body, { status: 200, headers: { 'Content-Type': type } }));
      const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch });
      expect(await rejection(client.wallpapers.list()))
        .to.be.instanceOf(ApiError)
        .and.include({ error: 'unexpected_response' });
    });
  }

  for (const declared of [true, false]) {
    it(`when an answer is larger than maxBodyBytes (${declared ? 'said by Content-Length' : 'streamed without one'}), then the call fails without holding it or asking again`, async () => {
      const chunk = new Uint8Array(64 * 1024).fill(32);
      let sentChunks = 0;
      const { fetch, urls } = fake(() => {
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            sentChunks++;
            if (sentChunks > 1000) controller.close();
            else controller.enqueue(chunk);
          },
        });
        return new Response(body, { status: 200, headers: declared ? { 'Content-Length': String(1000 * chunk.byteLength) } : {} });
      });
      const client = createWallpaperClient({ baseUrl: 'http://api.test', apiKey: KEY, fetch, maxBodyBytes: 1024 * 1024 });
      const err = await rejection(client.wallpapers.list());
      expect(err).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
      expect((err as Error).message).to.include('larger than 1048576 bytes');
      expect(urls).to.have.length(1);
      expect(sentChunks).to.be.below(40);
    });
  }

  it('when the heap is collected while calls wait on a server that never answers, then their signal and their timeout still end them', async () => {
    // The client joins the caller's signal and its timeout with AbortSignal.any, whose sources hold
    // it weakly: whatever holds it while the request waits must hold it through a collection.
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const collecting = setInterval(collect, 10);
    try {
      const { port } = server.address() as AddressInfo;
      const baseUrl = `http://127.0.0.1:${port}`;
      const stop = new AbortController();
      setTimeout(() => stop.abort(new Error('stopped by the caller')), 100);
      const stopped = rejection(createWallpaperClient({ baseUrl, apiKey: KEY, retries: 0 }).wallpapers.list({}, { signal: stop.signal }));
      const timedOut = rejection(createWallpaperClient({ baseUrl, apiKey: KEY, retries: 0, timeoutMs: 150 }).wallpapers.list());
      expect(((await stopped) as Error).message).to.equal('stopped by the caller');
      expect(((await timedOut) as Error).name).to.equal('TimeoutError');
    } finally {
      clearInterval(collecting);
      server.closeAllConnections();
      server.close();
    }
  });

  it('when an answer`s gzip is broken, then the call fails with an ApiError at once, not retried as a network error', async () => {
    let asked = 0;
    const server = createServer((_request, response) => {
      asked++;
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      response.end('{"data": [], "not": "gzip"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createWallpaperClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, backoffMs: 1 });
      const err = await rejection(client.wallpapers.list());
      expect(err).to.be.instanceOf(ApiError).and.include({ error: 'unexpected_response' });
      expect((err as Error).message).to.include('content coding is broken');
      expect(asked).to.equal(1);
    } finally {
      server.close();
    }
  });

  it('when the API redirects in a loop, then the call fails once, not retried as a network error', async () => {
    // Retried as one, a loop had cost 84 requests for one call (helper-110).
    let asked = 0;
    const server = createServer((_request, response) => {
      asked++;
      response.writeHead(302, { Location: '/v1/wallpapers' });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createWallpaperClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, backoffMs: 1 });
      const err = await rejection(client.wallpapers.list());
      expect(err).to.be.instanceOf(TypeError);
      expect(asked).to.equal(21);
    } finally {
      server.close();
    }
  });

  it('when the key cannot go into a header, then the client refuses it at once without showing it', () => {
    const secret = 'wpc_SECRETPART';
    for (const key of [`${secret}\n`, `${secret} x`, `${secret}é`]) {
      expect(() => createWallpaperClient({ baseUrl: 'http://api.test', apiKey: key }))
        .to.throw(TypeError)
        .that.has.property('message')
        .that.does.not.include('SECRET');
    }
  });
});

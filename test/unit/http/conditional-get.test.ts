import { expect } from 'chai';
import { share } from '../../../src/infra/shared-result.js';
import Koa from 'koa';
import http from 'node:http';
import { compression } from '../../../src/http/compression.js';
import { conditionalGet } from '../../../src/http/conditional-get.js';
import { listen } from '../../support/harness.js';

/** A fresh app that answers every request with the body `current()` returns. */
async function serving(current: () => object) {
  const app = new Koa();
  app.use(conditionalGet);
  app.use((ctx) => {
    ctx.body = current();
  });
  return listen(app);
}

describe('conditional GET representations', () => {
  it('when a shared body is served again, then it is serialized once and the bytes and ETag equal those of an equal fresh body', async () => {
    let serializations = 0;
    const shared = share({
      toJSON() {
        serializations++;
        return { data: [1, 2, 3], meta: { total: 3 } };
      },
    });
    let useShared = true;
    const app = await serving(() => (useShared ? shared : { data: [1, 2, 3], meta: { total: 3 } }));
    try {
      const first = await fetch(app.url);
      const second = await fetch(app.url);
      useShared = false;
      const fresh = await fetch(app.url);
      expect(serializations).to.equal(1);
      const bodies = await Promise.all([first, second, fresh].map((res) => res.text()));
      expect(new Set(bodies).size).to.equal(1);
      expect(new Set([first, second, fresh].map((res) => res.headers.get('etag'))).size).to.equal(1);
    } finally {
      await app.close();
    }
  });

  it('when a mutable body is served, then every response is serialized from its current content', async () => {
    const body = { n: 1 };
    const app = await serving(() => body);
    try {
      const before = await fetch(app.url);
      body.n = 2;
      const after = await fetch(app.url);
      expect(await before.json()).to.deep.equal({ n: 1 });
      expect(await after.json()).to.deep.equal({ n: 2 });
      expect(before.headers.get('etag')).to.not.equal(after.headers.get('etag'));
    } finally {
      await app.close();
    }
  });

  it('when a response is marked no-store, then it carries no tag and If-None-Match never makes it a 304', async () => {
    const app = new Koa();
    app.use(conditionalGet);
    app.use((ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { used: 12 };
    });
    const running = await listen(app);
    try {
      const res = await fetch(running.url, { headers: { 'If-None-Match': '*' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).to.equal(null);
      expect(await res.json()).to.deep.equal({ used: 12 });
    } finally {
      await running.close();
    }
  });

  describe('the tag of each coded form', () => {
    const LARGE = { data: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `wallpaper number ${i}` })) };
    const ask = (url: string, headers: Record<string, string>, method = 'GET') =>
      new Promise<{ status: number; etag: string; encoding: string | undefined }>((resolve, reject) => {
        http
          .request(url, { headers, method }, (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, etag: String(res.headers['etag']), encoding: res.headers['content-encoding'] }),
            );
          })
          .on('error', reject)
          .end();
      });
    let app: Awaited<ReturnType<typeof listen>>;
    let identity: string;
    before(async () => {
      const koa = new Koa();
      koa.use(compression());
      koa.use(conditionalGet);
      koa.use((ctx) => {
        ctx.body = LARGE;
      });
      app = await listen(koa);
      identity = (await ask(app.url, {})).etag;
    });
    after(() => app.close());
    const coded = (coding: string) => `${identity.slice(0, -1)}-${coding}"`;

    it('when a client revalidates with the tag of the form it would get, then it gets 304 and that tag, W/ or not', async () => {
      expect(await ask(app.url, { 'Accept-Encoding': 'br', 'If-None-Match': coded('br') })).to.include({ status: 304, etag: coded('br') });
      expect(await ask(app.url, { 'Accept-Encoding': 'gzip', 'If-None-Match': `W/${coded('gzip')}` })).to.include({
        status: 304,
        etag: coded('gzip'),
      });
      expect(await ask(app.url, { 'If-None-Match': identity })).to.include({ status: 304, etag: identity });
    });

    it('when the tags sent include another coded form before its own, then the 304 names the form this request gets', async () => {
      const res = await ask(app.url, { 'Accept-Encoding': 'br', 'If-None-Match': `"zzz", ${coded('gzip')}, ${coded('br')}` });
      expect(res).to.include({ status: 304, etag: coded('br') });
    });

    it('when a client holds only another coded form, then it gets the whole answer in its own form', async () => {
      expect(await ask(app.url, { 'Accept-Encoding': 'br', 'If-None-Match': coded('gzip') })).to.include({
        status: 200,
        etag: coded('br'),
        encoding: 'br',
      });
      expect(await ask(app.url, { 'If-None-Match': coded('br') })).to.include({ status: 200, etag: identity, encoding: undefined });
      expect(await ask(app.url, { 'Accept-Encoding': 'gzip;q=0', 'If-None-Match': coded('gzip') })).to.include({ status: 200, etag: identity });
      expect(await ask(app.url, { 'Accept-Encoding': 'br', 'If-None-Match': identity })).to.include({ status: 200, etag: coded('br') });
    });

    it("when HEAD is asked with Accept-Encoding, then it carries the identity form's tag, as it sends no coded body", async () => {
      expect(await ask(app.url, { 'Accept-Encoding': 'br' }, 'HEAD')).to.include({ status: 200, etag: identity, encoding: undefined });
      expect(await ask(app.url, { 'Accept-Encoding': 'br', 'If-None-Match': identity }, 'HEAD')).to.include({ status: 304, etag: identity });
    });
  });
});

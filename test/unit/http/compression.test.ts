import { expect } from 'chai';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { compression, encodeOnce } from '../../../src/http/compression.js';
import { conditionalGet, preparedText } from '../../../src/http/conditional-get.js';
import { share } from '../../../src/infra/shared-result.js';
import { listen } from '../../support/harness.js';

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function raw(url: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}

const LARGE = { data: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `wallpaper number ${i}` })) };

/** compression outside conditionalGet, as in the app, around a handler the test gives. */
async function serving(handler: (ctx: Koa.Context) => void, inside?: (ctx: Koa.Context) => void) {
  const app = new Koa();
  app.use(compression());
  if (inside) {
    app.use(async (ctx, next) => {
      await next();
      inside(ctx);
    });
  }
  app.use(conditionalGet);
  app.use(handler);
  return listen(app);
}

describe('compression', () => {
  for (const [encoding, decode] of [
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const) {
    it(`when a client takes ${encoding} and the JSON body is 1 KB or more, then it gets the same bytes ${encoding}-encoded, with their length`, async () => {
      const app = await serving((ctx) => {
        ctx.body = LARGE;
      });
      try {
        const identity = await raw(app.url, {});
        const encoded = await raw(app.url, { 'Accept-Encoding': encoding });
        expect(identity.headers['content-encoding']).to.equal(undefined);
        expect(encoded.headers['content-encoding']).to.equal(encoding);
        expect(encoded.headers['vary']).to.match(/Accept-Encoding/);
        expect(identity.headers['vary'], 'the identity answer varies too').to.match(/Accept-Encoding/);
        expect(encoded.headers['content-type']).to.equal('application/json; charset=utf-8');
        expect(Number(encoded.headers['content-length'])).to.equal(encoded.body.length);
        expect(encoded.body.length).to.be.below(identity.body.length / 2);
        expect(decode(encoded.body).toString()).to.equal(identity.body.toString());
      } finally {
        await app.close();
      }
    });
  }

  it('when the body is small, the request is HEAD, the type is not text or the response says no-transform, then it is sent as it is', async () => {
    let mode = 'small';
    const app = await serving((ctx) => {
      if (mode === 'small') ctx.body = { data: [1] };
      else if (mode === 'png') {
        ctx.type = 'image/png';
        ctx.body = Buffer.alloc(4096, 7);
      } else {
        ctx.set('Cache-Control', 'no-transform');
        ctx.body = LARGE;
      }
    });
    try {
      const small = await raw(app.url, { 'Accept-Encoding': 'gzip, br' });
      const head = await raw(app.url, { 'Accept-Encoding': 'gzip, br' }, 'HEAD');
      mode = 'png';
      const png = await raw(app.url, { 'Accept-Encoding': 'gzip, br' });
      mode = 'no-transform';
      const untouched = await raw(app.url, { 'Accept-Encoding': 'gzip, br' });
      for (const res of [small, head, png, untouched]) expect(res.headers['content-encoding']).to.equal(undefined);
      expect(png.body.length).to.equal(4096);
      expect(JSON.parse(untouched.body.toString())).to.deep.equal(LARGE);
    } finally {
      await app.close();
    }
  });

  it('when a text body of 1 KB or more is not a prepared representation (a page of the docs), then it is compressed too', async () => {
    const page = `<!doctype html><p>${'wallpapers '.repeat(200)}</p>`;
    const app = await serving((ctx) => {
      ctx.type = 'text/html';
      ctx.body = page;
    });
    try {
      const res = await raw(app.url, { 'Accept-Encoding': 'gzip' });
      expect(res.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(res.body).toString()).to.equal(page);
    } finally {
      await app.close();
    }
  });

  it('when one shared body answers several requests, then they share one prepared representation, and a fresh body gets its own', async () => {
    const shared = share(structuredClone(LARGE));
    let useShared = true;
    const holders: (object | undefined)[] = [];
    const app = await serving(
      (ctx) => {
        ctx.body = useShared ? shared : structuredClone(LARGE);
      },
      (ctx) => holders.push(preparedText(ctx, ctx.body as string)),
    );
    try {
      const first = await raw(app.url, { 'Accept-Encoding': 'br' });
      const second = await raw(app.url, { 'Accept-Encoding': 'br' });
      useShared = false;
      const fresh = await raw(app.url, { 'Accept-Encoding': 'br' });
      expect(holders[0]).to.be.an('object');
      expect(holders[1]).to.equal(holders[0]);
      expect(holders[2]).to.be.an('object').and.not.equal(holders[0]);
      expect(second.body.equals(first.body)).to.equal(true);
      expect(brotliDecompressSync(fresh.body).toString()).to.equal(JSON.stringify(LARGE));
    } finally {
      await app.close();
    }
  });

  it('when a holder asks for a coding again, then it gets the bytes computed the first time; another coding or holder computes its own', async () => {
    const holder = {};
    const text = JSON.stringify(LARGE);
    const first = encodeOnce(holder, 'br', text);
    expect(encodeOnce(holder, 'br', text)).to.equal(first);
    expect(encodeOnce(holder, 'gzip', text)).to.not.equal(first);
    expect(encodeOnce({}, 'br', text)).to.not.equal(first);
    expect(brotliDecompressSync(await first).toString()).to.equal(text);
  });

  it('when a small text is encoded and kept, then its bytes hold no more memory than their own length', async () => {
    for (const encoding of ['br', 'gzip'] as const) {
      const bytes = await encodeOnce({}, encoding, JSON.stringify({ data: [1, 2, 3] }).repeat(40));
      expect(bytes.buffer.byteLength, encoding).to.equal(bytes.length);
    }
  });

  it('when the body was replaced after conditionalGet prepared it, then nothing prepared is read for it', async () => {
    const holders: (object | undefined)[] = [];
    const app = await serving(
      (ctx) => {
        ctx.body = LARGE;
      },
      (ctx) => {
        ctx.body = `${ctx.body as string} `;
        holders.push(preparedText(ctx, ctx.body as string));
      },
    );
    try {
      const res = await raw(app.url, { 'Accept-Encoding': 'gzip' });
      expect(holders).to.deep.equal([undefined]);
      expect(gunzipSync(res.body).toString()).to.equal(`${JSON.stringify(LARGE)} `);
    } finally {
      await app.close();
    }
  });
});

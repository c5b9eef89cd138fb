import { expect } from 'chai';
import { share } from '../../../src/infra/shared-result.js';
import Koa from 'koa';
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
});

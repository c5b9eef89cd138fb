import { expect } from 'chai';
import { fixtureWallpapers } from '../support/fixtures.js';
import { createIndexWithDocs, dropIndicesOf, request, startApp, testConfig, uniqueName } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

// Two deployments that share CURSOR_SECRET (staging and production, two tenants): a cursor one
// issued had read the other's index, sealed and so trusted (helper-94).
describe('cursors across catalogues that share a secret', function () {
  this.timeout(60_000);
  const ctx = useCatalogue();

  it('when a cursor issued for another catalogue comes, then 400 names cursor and nothing of that catalogue is served', async () => {
    const otherAlias = uniqueName('test-other-catalogue');
    const other = fixtureWallpapers().map((w) => ({ ...w, id: w.id + 900_000, title: `Elsewhere ${w.title}` }));
    await createIndexWithDocs(ctx.es, otherAlias, other);
    const otherApp = await startApp({ config: testConfig({ indexAlias: otherAlias }), es: ctx.es, redis: ctx.redis });
    try {
      expect(testConfig({ indexAlias: otherAlias }).cursorSecret, 'the same secret').to.equal(ctx.config.cursorSecret);
      for (const path of ['/v1/wallpapers?per_page=2', '/v1/changes?per_page=2']) {
        const first = await request(otherApp.url, path, { key: ctx.key });
        expect(first.status, path).to.equal(200);
        const cursor = first.body.meta.next_cursor as string;
        const res = await request(ctx.app.url, `${path}&cursor=${cursor}`, { key: ctx.key });
        expect(res.status, path).to.equal(400);
        expect(res.body.message, path).to.match(/'cursor'/);
        expect(res.text, path).not.to.include('Elsewhere');
      }
      const own = await request(ctx.app.url, '/v1/wallpapers?per_page=2', { key: ctx.key });
      const next = await request(ctx.app.url, `/v1/wallpapers?per_page=2&cursor=${own.body.meta.next_cursor}`, { key: ctx.key });
      expect(next.status, 'its own cursor').to.equal(200);
    } finally {
      await otherApp.close();
      await dropIndicesOf(ctx.es, otherAlias);
    }
  });
});

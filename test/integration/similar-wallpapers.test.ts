import { expect } from 'chai';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import type { ListItem } from '../../src/wallpapers/catalogued.js';
import { WALLPAPER_FIELDS } from '../../src/wallpapers/wallpaper.js';
import { goodNeighbour, readSimilarJudgments } from '../relevance/similar-precision.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

// The demo catalogue (npm run up: seed 42), where test/relevance/similar.json's seeds were judged.
const DEMO = [...generateWallpapers({ count: 10_000, seed: 42, imageBaseUrl: 'https://images.wallpapers.example' })];
// Precision of the top 10 by the judged rule, over the judged seeds.
const MIN_SIMILAR_PRECISION = 0.9;

describe('wallpapers like one, on the demo catalogue', function () {
  this.timeout(180_000);
  const ctx = useCatalogue({}, { docs: () => DEMO });
  const byId = new Map(DEMO.map((doc) => [doc.id, doc]));

  const similar = async (path: string) => {
    const res = await request(ctx.app.url, path, { key: ctx.key });
    return res as { status: number; body: { data: ListItem[]; meta: Record<string, unknown>; error?: string } };
  };

  it(`when each judged wallpaper's likes are asked, then at least ${MIN_SIMILAR_PRECISION} of the top 10 are good neighbours, and never itself`, async () => {
    const judgments = readSimilarJudgments();
    const precisions: string[] = [];
    let sum = 0;
    for (const { id } of judgments.seeds) {
      const { status, body } = await similar(`/v1/wallpapers/${id}/similar?per_page=10`);
      expect(status).to.equal(200);
      expect(body.data.map((w) => w.id)).not.to.include(id);
      const good = body.data.filter((w) => goodNeighbour(judgments, byId.get(id)!, byId.get(w.id)!)).length / 10;
      precisions.push(`${id}: ${good}`);
      sum += good;
    }
    expect(sum / judgments.seeds.length, precisions.join(', ')).to.be.at.least(MIN_SIMILAR_PRECISION);
  });

  it('when likes are asked, then they come as one page of the list envelope, with per_page clamped as in lists', async () => {
    const { status, body } = await similar('/v1/wallpapers/195/similar');
    expect(status).to.equal(200);
    expect(body.data).to.have.length(20);
    expect(body.meta).to.deep.equal({ current_page: 1, per_page: 20, total_items: 20, total_pages: 1, next_cursor: null });
    for (const item of body.data) expect(Object.keys(item)).to.deep.equal([...WALLPAPER_FIELDS]);
    const most = await similar('/v1/wallpapers/195/similar?per_page=500&include=tags');
    expect(most.body.data).to.have.length(100);
    expect(most.body.data[0]!.tags).to.be.an('array');
  });

  it('when the id is unknown or the parameters are bad, then the answer is a JSON error naming them', async () => {
    const missing = await similar('/v1/wallpapers/999999/similar');
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('not_found');
    for (const path of ['/v1/wallpapers/abc/similar', '/v1/wallpapers/1/similar?per_page=0', '/v1/wallpapers/1/similar?include=everything']) {
      const bad = await similar(path);
      expect(bad.status, path).to.equal(400);
      expect(bad.body.error, path).to.equal('invalid_request');
    }
  });
});

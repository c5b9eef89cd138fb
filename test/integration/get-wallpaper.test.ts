import { expect } from 'chai';
import { toWallpaper } from '../../src/wallpapers/wallpaper.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

describe('GET /v1/wallpapers/{id}', () => {
  const ctx = useCatalogue();
  const get = (path: string) => request(ctx.app.url, path, { key: ctx.key });

  it('when the id exists, then the wallpaper is returned in detail: its nine fields, dimensions and shape, tags, palette and tone', async () => {
    const res = await get('/v1/wallpapers/21');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      ...toWallpaper(ctx.docs.find((d) => d.id === 21)!),
      width: 1920,
      height: 1080,
      ratio: '16x9',
      orientation: 'landscape',
      tags: [],
      colors: [],
      tone: null,
    });
  });

  it('when the id is unknown, then 404 not_found', async () => {
    const res = await get('/v1/wallpapers/999999');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'not_found', message: 'Wallpaper 999999 not found', status: 404 });
  });

  for (const bad of ['abc', '1.5', '0x10', '1e3', '-3', '0', '99999999999999999999', '05', '%2B5', '%205%20', '%C2%A05']) {
    it(`when the id is '${bad}', then 400 invalid_request naming the id`, async () => {
      const res = await get(`/v1/wallpapers/${bad}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('invalid_request');
      expect(res.body.status).to.equal(400);
      expect(res.body.message).to.include("'id'");
    });
  }
});

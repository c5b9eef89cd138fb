import { expect } from 'chai';
import { generateWallpapers } from '../../src/catalogue/generation/generator.js';
import { Random } from '../../src/catalogue/generation/prng.js';
import { COLOR_NAMES, type ColorShare, MIN_SHARE, colorFacts, isNear, labToHex } from '../../src/wallpapers/colors.js';
import type { WallpaperDocument } from '../../src/wallpapers/wallpaper.js';
import { request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

const random = new Random(11);
const hex = () => labToHex({ l: 10 + random.next() * 85, a: random.next() * 120 - 60, b: random.next() * 120 - 60 });

/** 1–6 colours anywhere in the gamut, shares descending and adding to 1: nothing like the demo looks. */
function randomPalette(): ColorShare[] {
  const weights = Array.from({ length: 1 + Math.floor(random.next() * 6) }, () => random.next() ** 2 + 0.01);
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => ({ hex: hex(), share: Math.floor((w / total) * 1000) / 1000 })).sort((a, b) => b.share - a.share);
}

const catalogue: WallpaperDocument[] = [...generateWallpapers({ count: 800, seed: 5, imageBaseUrl: 'https://images.wallpapers.example' })].map(
  (doc) => ({ ...doc, colors: randomPalette() }),
);

/** What the documented rule says, worked out here from the records rather than asked of the index. */
const shown = (doc: WallpaperDocument, test: (hex: string) => boolean) =>
  (doc.colors ?? []).some(({ hex: colour, share }) => share >= MIN_SHARE && test(colour));

describe('colour filters on the real catalogue, against the documented rule', function () {
  this.timeout(120_000);
  const ctx = useCatalogue({}, { docs: () => catalogue });

  const total = async (query: string) => {
    const res = await request(ctx.app.url, `/v1/wallpapers?${query}&per_page=1`, { key: ctx.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body as { meta: { total_items: number } }).meta.total_items;
  };

  it('when a hex is asked, then the total is the wallpapers with a colour of 5 % or more near it', async () => {
    const asked = [...Array.from({ length: 12 }, hex), catalogue[0]!.colors![0]!.hex, '#000000', '#ffffff'];
    let found = 0;
    for (const target of asked) {
      const expected = catalogue.filter((doc) => shown(doc, (colour) => isNear(colorFacts(colour).lab, colorFacts(target).lab))).length;
      expect(await total(`color=${encodeURIComponent(target)}`), target).to.equal(expected);
      found += expected;
    }
    expect(found, 'the hexes asked find something').to.be.greaterThan(50);
  });

  it('when names are asked, then the total is the wallpapers with a colour of 5 % or more of any of those names', async () => {
    for (const names of [...COLOR_NAMES.map((name) => [name]), ['teal', 'brown']]) {
      const expected = catalogue.filter((doc) => shown(doc, (colour) => colorFacts(colour).names.some((name) => names.includes(name)))).length;
      expect(await total(`color=${names.join(',')}`), names.join(',')).to.equal(expected);
    }
  });

  it('when a name and a hex are asked together, then either one is enough', async () => {
    const target = catalogue[3]!.colors![0]!.hex;
    const expected = catalogue.filter((doc) =>
      shown(doc, (colour) => colorFacts(colour).names.includes('green') || isNear(colorFacts(colour).lab, colorFacts(target).lab)),
    ).length;
    expect(await total(`color=green,${encodeURIComponent(target)}`)).to.equal(expected);
  });

  it('when the same colours are asked in another order or spelling, then a cursor from one serves the other', async () => {
    const first = await request(ctx.app.url, '/v1/wallpapers?color=1E3A5F,blue&sort=relevance&per_page=5', { key: ctx.key });
    expect(first.status).to.equal(200);
    const cursor = (first.body as { meta: { next_cursor: string } }).meta.next_cursor;
    const next = await request(ctx.app.url, `/v1/wallpapers?color=blue,%231e3a5f&sort=relevance&per_page=5&cursor=${encodeURIComponent(cursor)}`, {
      key: ctx.key,
    });
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
  });
});

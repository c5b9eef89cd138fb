import { vocabularyOf } from '../../../../src/catalogue/generation/vocabulary.js';
import { expect } from 'chai';
import { generateWallpaper, generateWallpapers } from '../../../../src/catalogue/generation/generator.js';
import { CATEGORIES } from '../../../../src/wallpapers/categories.js';
import { parseResolution } from '../../../../src/wallpapers/resolution.js';
import { WALLPAPER_FIELDS, type WallpaperDocument } from '../../../../src/wallpapers/wallpaper.js';
import { colorNamesOf } from '../../../../src/wallpapers/colors.js';
import { isTag } from '../../../../src/wallpapers/tags.js';

const BASE = 'https://images.wallpapers.example';
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function generate(count: number, seed = 42, startId?: number): WallpaperDocument[] {
  return [...generateWallpapers({ count, seed, imageBaseUrl: BASE, startId })];
}

describe('generateWallpapers', () => {
  const sample = generate(10_000);

  it('when run twice with the same count and seed, then the output is byte-identical', () => {
    expect(JSON.stringify(generate(2000, 7))).to.equal(JSON.stringify(generate(2000, 7)));
  });

  it('when the seed changes, then the documents change', () => {
    expect(JSON.stringify(generate(50, 7))).not.to.equal(JSON.stringify(generate(50, 8)));
  });

  it('when count or startId differ, then each id still gets the same document', () => {
    const tail = generate(100, 42, 9901);
    expect(tail.map((doc) => doc.id)).to.deep.equal(sample.slice(9900).map((doc) => doc.id));
    expect(tail).to.deep.equal(sample.slice(9900));
    expect(generateWallpaper(5000, 42, BASE)).to.deep.equal(sample[4999]);
  });

  it('when startId is given, then ids run sequentially from it', () => {
    expect(generate(5, 1, 41).map((doc) => doc.id)).to.deep.equal([41, 42, 43, 44, 45]);
  });

  it('when documents are generated, then they have exactly the nine spec fields plus width, height, tags and colors', () => {
    const keys = [...WALLPAPER_FIELDS, 'width', 'height', 'tags', 'colors'];
    for (const doc of sample.slice(0, 100)) expect(Object.keys(doc)).to.have.members(keys).and.have.lengthOf(keys.length);
  });

  it('when documents are generated, then created_at is ISO 8601 UTC to the second within 2019-01-01..2026-06-30', () => {
    for (const doc of sample) {
      expect(doc.created_at).to.match(ISO_SECONDS);
      expect(new Date(doc.created_at).toISOString().slice(0, 19) + 'Z').to.equal(doc.created_at);
      expect(doc.created_at >= '2019-01-01T00:00:00Z' && doc.created_at <= '2026-06-30T23:59:59Z', doc.created_at).to.equal(true);
    }
  });

  it('when documents are generated, then url and thumbnail are absolute and built from id and title slug', () => {
    for (const doc of sample) {
      const slug = doc.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      expect(doc.url).to.equal(`${BASE}/full/${doc.id}-${slug}.jpg`);
      expect(doc.thumbnail).to.equal(`${BASE}/thumb/${doc.id}-${slug}.jpg`);
      expect(new URL(doc.url).protocol).to.equal('https:');
    }
  });

  it('when imageBaseUrl ends with a slash, then URLs have no double slash', () => {
    const [doc] = [...generateWallpapers({ count: 1, seed: 1, imageBaseUrl: `${BASE}/` })];
    expect(doc?.url.startsWith(`${BASE}/full/1-`)).to.equal(true);
  });

  it('when documents are generated, then resolution matches width and height', () => {
    for (const doc of sample) expect(parseResolution(doc.resolution)).to.deep.equal({ width: doc.width, height: doc.height });
    const resolutions = new Set(sample.map((doc) => doc.resolution));
    for (const common of ['1920x1080', '2560x1440', '3440x1440', '3840x2160', '7680x4320', '1080x2340', '1290x2796']) {
      expect(resolutions.has(common), common).to.equal(true);
    }
    expect(sample.filter((doc) => doc.height > doc.width).length).to.be.greaterThan(1000);
  });

  it('when 10k documents are generated, then categories come from CATEGORIES, 15+ are used, and popularity is uneven', () => {
    const counts = new Map<string, number>();
    for (const doc of sample) counts.set(doc.category, (counts.get(doc.category) ?? 0) + 1);
    for (const category of counts.keys()) expect(CATEGORIES).to.include(category);
    expect(counts.size).to.be.at.least(15);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(sorted[0]).to.be.greaterThan(5 * (sorted.at(-1) ?? 0));
  });

  it('when 100k documents are generated, then downloads are long-tailed: median under 1000, max over 100000', () => {
    const downloads = generate(100_000, 3).map((doc) => doc.downloads);
    for (const value of downloads.slice(0, 1000)) expect(Number.isSafeInteger(value) && value >= 0).to.equal(true);
    downloads.sort((a, b) => a - b);
    expect(downloads[50_000]).to.be.below(1000);
    expect(downloads.at(-1)).to.be.above(100_000);
  });

  it('when titles and descriptions are generated, then they are real phrases, not lorem ipsum', () => {
    for (const doc of sample) {
      expect(doc.title).to.match(/^[A-Z][A-Za-z-]*( [A-Za-z-]+)*$/);
      expect(doc.description).to.match(/^[A-Z].*\.$/);
      expect(`${doc.title} ${doc.description}`.toLowerCase()).not.to.match(/lorem|ipsum|dolor/);
      expect(doc.description).not.to.match(/\ba [aeiou]|\ban [^aeiou\s\d]/i);
    }
    expect(new Set(sample.map((doc) => doc.title)).size).to.be.greaterThan(5000);
  });

  it('when options are invalid, then it throws a RangeError', () => {
    expect(() => generate(-1)).to.throw(RangeError);
    expect(() => generate(1, 1.5)).to.throw(RangeError);
    expect(() => generate(1, 1, 0)).to.throw(RangeError);
    expect(() => [...generateWallpapers({ count: 1, seed: 1, imageBaseUrl: '/images' })]).to.throw(RangeError);
  });
});

describe('generator vocabulary', () => {
  it('when a category is in the OpenAPI document, then the generator has word lists for it', () => {
    for (const category of CATEGORIES) expect(() => vocabularyOf(category), category).to.not.throw();
  });
});

describe('what a demo wallpaper looks like', () => {
  const docs = generate(3000, 42);

  it('when tags are generated, then each is a valid tag, the category is one, and none repeats', () => {
    for (const doc of docs) {
      expect(doc.tags!.every(isTag), JSON.stringify(doc.tags)).to.equal(true);
      expect(doc.tags).to.include(doc.category);
      expect(new Set(doc.tags).size).to.equal(doc.tags!.length);
    }
  });

  it('when a title names a colour, a time of day or a subject, then its palette has a colour of that name', () => {
    const named = (title: RegExp, name: string) => {
      const matching = docs.filter((doc) => title.test(doc.title));
      expect(matching.length, String(title)).to.be.greaterThan(5);
      const showing = matching.filter((doc) => colorNamesOf(doc.colors!).includes(name));
      expect(showing.length / matching.length, `${title} shows ${name}`).to.be.above(0.9);
    };
    named(/Pine Forest|Bamboo Grove|Fern Valley/, 'green');
    named(/at Night|at Midnight/, 'black');
    named(/Golden Hour/, 'orange');
    named(/Neon/, 'pink');
  });

  it('when a palette is generated, then it follows the contract: at most six colours, shares descending, adding up to 1', () => {
    for (const { colors } of docs.slice(0, 500)) {
      expect(colors!.length).to.be.within(1, 6);
      expect(colors!.map((c) => c.share)).to.deep.equal([...colors!.map((c) => c.share)].sort((a, b) => b - a));
      expect(colors!.reduce((sum, c) => sum + c.share, 0)).to.be.closeTo(1, 0.001);
    }
  });

  it('when palettes: none is asked, then no palette is generated and nothing else changes', () => {
    const [without] = [...generateWallpapers({ count: 1, seed: 42, imageBaseUrl: BASE, palettes: 'none' })];
    const { colors: _colors, ...rest } = docs[0]!;
    expect(without).to.deep.equal(rest);
  });
});

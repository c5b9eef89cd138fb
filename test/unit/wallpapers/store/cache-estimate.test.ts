import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type CataloguedWallpaper, packPalette, packTags, toDetail } from '../../../../src/wallpapers/catalogued.js';
import { estimateBytes } from '../../../../src/wallpapers/store/cached-repository.js';
import { share } from '../../../../src/infra/shared-result.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const COUNT = 2000;

// A demo-like record: six tags, five colours, a sentence of description.
const kept = (id: number): CataloguedWallpaper => ({
  id,
  title: `Misty Alpine Lake ${id}`,
  description: 'A still lake under misty peaks at first light, pines along the shore.',
  url: `https://images.example/full/${id}.jpg`,
  thumbnail: `https://images.example/thumb/${id}.jpg`,
  resolution: '3840x2160',
  category: 'landscapes',
  downloads: id * 7,
  created_at: '2025-03-14T09:26:53Z',
  tag_line: packTags(['lake', 'mountains', 'mist', 'pines', 'dawn', 'calm']),
  palette_line: packPalette([
    { hex: '#1f3a4b', share: 0.31 },
    { hex: '#8fa9b8', share: 0.24 },
    { hex: '#d9e2e7', share: 0.2 },
    { hex: '#3e5d3a', share: 0.15 },
    { hex: '#a67c52', share: 0.1 },
  ]),
  tone: 'cool',
});

function heldBytes(): number {
  collect();
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

describe('the response cache budget', () => {
  it('when a detail is cached, then its estimated size is at least the memory it holds and less than twice that', () => {
    const before = heldBytes();
    // What a cached detail keeps alive: the shared object and, once answered, its JSON (see conditionalGet).
    const entries = Array.from({ length: COUNT }, (_, i) => {
      const detail = share(toDetail(kept(i + 1)));
      return { key: `get ${i + 1}`, detail, text: JSON.stringify(detail) };
    });
    const held = heldBytes() - before;
    const estimated = entries.reduce((sum, { key, detail }) => sum + estimateBytes(key, detail), 0);
    expect(entries).to.have.length(COUNT);
    expect(estimated / held, `estimated ${Math.round(estimated / COUNT)} B a detail, held ${Math.round(held / COUNT)} B`).to.be.within(1, 2);
  });
});

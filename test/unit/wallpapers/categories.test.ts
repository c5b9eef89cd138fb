import { expect } from 'chai';
import { CATEGORIES, CATEGORY_NAMED } from '../../../src/wallpapers/categories.js';

describe('the words that name a category', () => {
  it('when a word is a category, its singular or another word for it, then it names that category', () => {
    for (const category of CATEGORIES) expect(CATEGORY_NAMED.get(category), category).to.equal(category);
    expect(CATEGORY_NAMED.get('sport')).to.equal('sports');
    expect(CATEGORY_NAMED.get('city')).to.equal('cityscapes');
    expect(CATEGORY_NAMED.get('minimalism')).to.equal('minimalist');
  });

  it('when a word names no category, then none is named', () => {
    for (const word of ['spac', 'anim', 'mountain', 'constructor']) expect(CATEGORY_NAMED.get(word), word).to.equal(undefined);
  });
});

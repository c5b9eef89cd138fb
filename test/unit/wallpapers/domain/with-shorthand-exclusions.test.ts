import { expect } from 'chai';
import type { SearchParams } from '../../../../src/wallpapers/params.js';
import { readSearchText } from '../../../../src/wallpapers/search-query.js';
import type { WallpaperRepository } from '../../../../src/wallpapers/store/repository.js';
import { type Nouns, withShorthandExclusions, withShorthandRead } from '../../../../src/wallpapers/domain/with-shorthand-exclusions.js';

// As WordNet reads them: nouns more than describing words; say a verb, more and boku no nouns;
// leaves a noun only after a determiner (else the verb leave); mountians a misspelling of mountains.
const NOUNS = new Set(['mountains', 'snow', 'space', 'planets', 'beach', 'people', 'boats', 'hero', 'sunset', 'wallpaper', 'tree', 'text', 'the']);
const KNOWN = new Set([...NOUNS, 'say', 'more', 'leaves']);
const wordNet: Nouns = {
  namesNoun: (word, afterDeterminer) => NOUNS.has(word.toLowerCase()) || (afterDeterminer === true && word === 'leaves'),
  knows: (word) => KNOWN.has(word.toLowerCase()),
  respelt: (word) => ({ mountians: ['mountains'], poeple: ['people'], boku: [] as string[], sayy: ['say'] })[word] ?? [],
  ready: Promise.resolve(),
};
const unread: Nouns = { namesNoun: () => undefined, knows: () => undefined, respelt: () => [], ready: Promise.resolve() };
const texts = (terms: readonly { text: string }[]) => terms.map(({ text }) => text);

describe('a no between two nouns, read as an exclusion', () => {
  it('when no stands between two nouns, then the word after it is excluded, and the words of a list after it', () => {
    const mountains = withShorthandRead(readSearchText('mountains no snow'), wordNet);
    expect(mountains.groups.map(texts)).to.deep.equal([['mountains']]);
    expect(texts(mountains.excluded)).to.deep.equal(['snow']);
    const beach = withShorthandRead(readSearchText('beach no people or boats at sunset'), wordNet);
    expect(beach.groups.map(texts)).to.deep.equal([['beach'], ['sunset']]);
    expect(texts(beach.excluded)).to.deep.equal(['people', 'boats']);
    expect(texts(withShorthandRead(readSearchText('space no planets -moon'), wordNet).excluded), 'beside a minus').to.deep.equal(['moon', 'planets']);
  });

  it('when a word either side is no noun, the word after is one of alternatives, or WordNet is not read, then the query is as typed', () => {
    for (const q of ['say no more', 'boku no hero academia', 'beach no people OR boats', 'mountains no snow']) {
      const text = readSearchText(q);
      const nouns = q === 'mountains no snow' ? unread : wordNet;
      expect(withShorthandRead(text, nouns), q).to.equal(text);
    }
  });

  it('when filler stands before no, then the query reads as its filler with the word after it excluded, as with a minus (helper-143, helper-144)', () => {
    for (const [q, minus] of [
      ['wallpaper no people', 'wallpaper -people'],
      ['hd wallpaper no people', 'hd wallpaper -people'],
      ['iphone no text', 'iphone -text'],
      ['4k no people', '4k -people'],
      ['background no people', 'background -people'],
    ] as const) {
      const { spaced: _spaced, ...read } = withShorthandRead(readSearchText(q), wordNet);
      const { spaced: _minusSpaced, ...asMinus } = readSearchText(minus);
      expect(read, q).to.deep.equal(asMinus);
    }
  });

  it("when the word before no is a misspelling of the catalogue's nouns only, then it reads as that noun; the word after no is read as typed (helper-143)", () => {
    expect(texts(withShorthandRead(readSearchText('mountians no snow'), wordNet).excluded)).to.deep.equal(['snow']);
    for (const q of ['sayy no snow', 'boku no hero', 'beach no poeple']) {
      const text = readSearchText(q);
      expect(withShorthandRead(text, wordNet), q).to.equal(text);
    }
  });

  it('when the word after no is a noun only after a determiner, then it is excluded; before no it must be a noun on its own', () => {
    expect(texts(withShorthandRead(readSearchText('tree no leaves'), wordNet).excluded)).to.deep.equal(['leaves']);
    const text = readSearchText('leaves no tree');
    expect(withShorthandRead(text, wordNet)).to.equal(text);
  });

  it('when a repository is asked, then it is asked with the exclusion, after WordNet is read; a query without such a no goes through untouched', async () => {
    const asked: SearchParams[] = [];
    let read = false;
    const nouns: Nouns = {
      namesNoun: (word) => (read ? NOUNS.has(word) : undefined),
      knows: (word) => (read ? KNOWN.has(word) : undefined),
      respelt: () => [],
      ready: new Promise((resolve) =>
        setTimeout(() => {
          read = true;
          resolve();
        }, 20),
      ),
    };
    const repository = withShorthandExclusions(
      {
        search: (params: SearchParams) => {
          asked.push(params);
          return Promise.resolve({}) as never;
        },
      } as unknown as WallpaperRepository,
      nouns,
    );
    const params = (q: string) => ({ text: readSearchText(q), page: 1, perPage: 10 }) as unknown as SearchParams;
    await repository.search(params('mountains no snow'));
    expect(texts(asked[0]!.text.excluded)).to.deep.equal(['snow']);
    const plain = params('mountains -snow');
    await repository.search(plain);
    expect(asked[1]).to.equal(plain);
    await repository.search(params('wallpaper no snow'));
    expect(asked[2]!.text, 'the filler, to be read as filler below').to.deep.include({
      groups: [[{ text: 'wallpaper', phrase: false }]],
      wallpapersAsked: true,
    });
    await repository.search(params('the no snow'));
    expect(asked[3]!.text, 'no filler: every wallpaper').to.deep.include({ groups: [], every: true });
    expect(asked[3]!.sort, 'as every wallpaper is read, by downloads').to.equal('downloads');
  });
});

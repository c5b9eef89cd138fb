import { expect } from 'chai';
import { withTypos } from '../../../../src/wallpapers/domain/with-typos.js';
import { createWordOccurrences } from '../../../../src/wallpapers/domain/word-occurrences.js';
import { occurringIn } from '../../../support/words-occur.js';
import { searchParams } from '../../../support/search-params.js';
import { recordingRepository } from '../../../support/recording-repository.js';

describe('typos only for words that match nothing as typed', () => {
  it('when some words of a search occur and others do not, then the search is told which occur', async () => {
    const repository = recordingRepository();
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur: occurringIn(['noon']), absentMs: 1000 }));
    await typos.search(searchParams({ q: 'Noon montain', page: 1, per_page: 20 }));
    expect(repository.seen[0]!.occurring).to.deep.equal(['noon']);
  });

  it('when no word occurs, or none could have a typo, then the search goes down as it came', async () => {
    const wordsOccur = occurringIn([]);
    const repository = recordingRepository();
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }));
    await typos.search(searchParams({ q: 'montain', page: 1, per_page: 20 }));
    await typos.search(searchParams({ q: 'sky "blue sea"', page: 1, per_page: 20 }));
    expect(repository.seen.map((params) => params.occurring)).to.deep.equal([undefined, undefined]);
    expect(wordsOccur.asked, 'three letters and a phrase are never tried with a typo, so never asked').to.deep.equal([['montain']]);
  });

  it('when a word is none of the language`s, then its typo is looked for unasked, whether or not it occurs', async () => {
    const wordsOccur = occurringIn(['rainly', 'noon']);
    const repository = recordingRepository();
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur, absentMs: 1000 }), {
      knows: (word) => word !== 'rainly',
      misspelt: () => Promise.resolve([]),
    });
    await typos.search(searchParams({ q: 'rainly noon', page: 1, per_page: 20 }));
    expect(repository.seen[0]!.occurring).to.deep.equal(['noon']);
    expect(wordsOccur.asked).to.deep.equal([['noon']]);
  });

  it('when a word of the language matches nothing, then the search is told it is known: its typo is looked for, but not trusted', async () => {
    const repository = recordingRepository();
    const knows = (word: string) => (word === 'montain' ? false : word === 'roof' ? true : undefined);
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur: occurringIn(['sunset']), absentMs: 1000 }), {
      knows,
      misspelt: () => Promise.resolve([]),
    });
    await typos.search(searchParams({ q: 'roof sunset montain', page: 1, per_page: 20 }));
    await typos.search(searchParams({ q: 'sunset beech', page: 1, per_page: 20 }));
    expect(repository.seen.map(({ occurring, known }) => [occurring, known])).to.deep.equal([
      [['sunset'], ['roof']],
      [['sunset'], undefined],
    ]);
  });

  it('when a search comes before the language is read, then it waits for it, and reads its words as every later search does', async () => {
    const repository = recordingRepository();
    let read = false;
    let settle = () => undefined as void;
    const ready = new Promise<void>((resolve) => (settle = resolve)).then(() => void (read = true));
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur: occurringIn(['snow']), absentMs: 1000 }), {
      knows: () => (read ? true : undefined),
      misspelt: () => Promise.resolve([]),
      ready,
    });
    const first = typos.search(searchParams({ q: 'tier in the snow', page: 1, per_page: 20 }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(repository.seen, 'nothing asked before the language is read').to.have.length(0);
    settle();
    await first;
    await typos.search(searchParams({ q: 'tier in the snow', page: 1, per_page: 20 }));
    expect(repository.seen.map(({ known }) => known)).to.deep.equal([['tier'], ['tier']]);
  });

  it('when the other words say a real word was mistyped for another, then the search is told the word meant; it stays known, its typos untrusted', async () => {
    const repository = recordingRepository();
    const asked: string[][] = [];
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur: occurringIn(['dunes', 'forest']), absentMs: 1000 }), {
      knows: () => true,
      misspelt: (_text, words) => {
        asked.push([...words]);
        return Promise.resolve(words.includes('dessert') ? [{ typed: 'dessert', meant: 'desert' }] : []);
      },
    });
    await typos.search(searchParams({ q: 'dessert dunes', page: 1, per_page: 20 }));
    await typos.search(searchParams({ q: 'roof forest', page: 1, per_page: 20 }));
    await typos.search(searchParams({ q: 'forest', page: 1, per_page: 20 }));
    expect(repository.seen.map(({ occurring, known, meant }) => [occurring, known, meant])).to.deep.equal([
      [['dunes'], ['dessert'], [{ typed: 'dessert', meant: 'desert' }]],
      [['forest'], ['roof'], undefined],
      [['forest'], undefined, undefined],
    ]);
    expect(asked, 'only real words the catalogue lacks are weighed').to.deep.equal([['dessert'], ['roof']]);
  });

  it('when Elasticsearch did not say whether the words occur, then no neighbour of theirs is weighed', async () => {
    const repository = recordingRepository();
    let weighed = 0;
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur: () => Promise.reject(new Error('timeout')), absentMs: 1000 }), {
      knows: () => true,
      misspelt: () => {
        weighed++;
        return Promise.resolve([]);
      },
    });
    await typos.search(searchParams({ q: 'dessert dunes', page: 1, per_page: 20 }));
    expect(weighed).to.equal(0);
    expect(repository.seen[0]!.known).to.deep.equal(['dessert', 'dunes']);
  });

  it('when Elasticsearch does not answer, then the words are tried with a typo, as if they did not occur', async () => {
    const repository = recordingRepository();
    const typos = withTypos(repository, createWordOccurrences({ wordsOccur: () => Promise.reject(new Error('timeout')), absentMs: 1000 }));
    await typos.search(searchParams({ q: 'noon', page: 1, per_page: 20 }));
    expect(repository.seen[0]!.occurring).to.equal(undefined);
  });
});

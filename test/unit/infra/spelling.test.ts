import { expect } from 'chai';
import { createNeighbours, createSpelling, editDistance } from '../../../src/infra/spelling.js';

describe('spelling correction', () => {
  it('when two words differ by one added, dropped, changed or swapped letter, then they are one edit apart', () => {
    expect(editDistance('kittty', 'kitty', 3)).to.equal(1);
    expect(editDistance('automobil', 'automobile', 3)).to.equal(1);
    expect(editDistance('computor', 'computer', 3)).to.equal(1);
    expect(editDistance('sakrua', 'sakura', 3)).to.equal(1);
    expect(editDistance('forest', 'forest', 3)).to.equal(0);
  });

  it('when words are further apart than the limit, then the distance stops just past it', () => {
    expect(editDistance('mountain', 'xylophone', 1)).to.equal(2);
  });

  it('when words of every length are compared in turn (the rows are reused), then each distance is the textbook one, or just past the limit', () => {
    // The optimal string alignment distance, whole table, no limit.
    const reference = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    let seed = 3;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    const word = () => Array.from({ length: Math.floor(random() * 40) }, () => 'abcd'[Math.floor(random() * 4)]).join('');
    for (let i = 0; i < 3000; i++) {
      const [a, b, limit] = [word(), word(), Math.floor(random() * 4)];
      expect(editDistance(a, b, limit), `${a} ${b} ${limit}`).to.equal(Math.min(reference(a, b), limit + 1));
    }
  });

  it('when a word is misspelt, then the closest known words are offered, sharing its first or second letter', () => {
    const correct = createSpelling(['kitty', 'kitten', 'cosmos', 'computer', 'automobile', 'blooms', 'blows']);
    expect(correct('kittty')).to.deep.equal(['kitty']);
    expect(correct('kosmos')).to.deep.equal(['cosmos']);
    expect(correct('automobil')).to.deep.equal(['automobile']);
    expect(correct('bloms')).to.have.members(['blooms', 'blows']);
  });

  it('when a word is known, short, or too far from every known word, then nothing is offered', () => {
    const correct = createSpelling(['kitty', 'cosmos']);
    expect(correct('kitty')).to.deep.equal([]);
    expect(correct('kit')).to.deep.equal([]);
    expect(correct('xylophone')).to.deep.equal([]);
    expect(correct('kittty'), 'two edits in a word of six letters').to.deep.equal(['kitty']);
    expect(createSpelling(['kitten'])('kittty'), 'two edits in a word of six letters').to.deep.equal([]);
    expect(correct('kitty-cat')).to.deep.equal([]);
  });

  it('when a real word is asked for its neighbours, then the known words fuzzy matching reaches come, sharing its first letter, nearest first', () => {
    const near = createNeighbours(['desert', 'dessert', 'deer', 'dear', 'bear', 'dearest', 'peak', 'petals', 'mountain', 'fountain', 'mountains']);
    expect(near('dessert')).to.deep.equal(['desert']);
    expect(near('dear'), 'not bear (another first letter), nor dearest (three letters more)').to.deep.equal(['deer']);
    expect(near('pedals')).to.deep.equal(['petals']);
    expect(near('mountian'), 'two edits from eight letters, the nearest first').to.deep.equal(['mountain', 'mountains']);
    expect(near('fountain'), 'never another first letter: Elasticsearch would not reach it').to.deep.equal([]);
    expect(near('pea'), 'too short to be looked for').to.deep.equal([]);
  });
});

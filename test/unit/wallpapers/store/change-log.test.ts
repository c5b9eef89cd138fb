import { expect } from 'chai';
import { CursorExpired } from '../../../../src/errors.js';
import { changesBody, expectContinued } from '../../../../src/wallpapers/store/change-log.js';

function refused(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(CursorExpired);
    return (err as Error).message;
  }
  throw new Error('expected CursorExpired');
}

describe('the record of changes', () => {
  describe('whether a reader`s position continues it', () => {
    const h1 = { found: true, history: { id: 'h1' } };

    it('when the position was read in the record`s history, at or below its watermark, then it goes on', () => {
      expect(() => expectContinued({ seq: 9, id: 3, history: 'h1' }, h1, 9)).to.not.throw();
      expect(() => expectContinued({ seq: 0, id: 3, history: 'h1' }, h1, 0)).to.not.throw();
    });

    it('when the position was read in another history, or the record has no watermark now, then the walk must begin again', () => {
      expect(refused(() => expectContinued({ seq: 9, id: 3, history: 'h1' }, { found: true, history: { id: 'h2' } }, 90))).to.match(
        /lost, restored or begun anew.*without a cursor/,
      );
      expect(refused(() => expectContinued({ seq: 9, id: 3, history: 'h1' }, { found: false }, null))).to.match(/lost, restored or begun anew/);
      expect(refused(() => expectContinued({ seq: 0, id: 0, history: 'h1' }, { found: false }, 0))).to.match(/lost, restored or begun anew/);
    });

    it('when a build before histories rewrote the watermark without one, then a position of a history goes on', () => {
      expect(() => expectContinued({ seq: 9, id: 3, history: 'h1' }, { found: true }, 9)).to.not.throw();
    });

    it('when a position names no history, then it goes on only in a history begun over a record made before histories, or where there is none', () => {
      const before = { seq: 9, id: 3 };
      expect(() => expectContinued(before, { found: true, history: { id: 'h1', legacy: true } }, 9)).to.not.throw();
      expect(() => expectContinued(before, { found: true }, 9)).to.not.throw();
      expect(() => expectContinued(before, { found: false }, null)).to.not.throw();
      // Read while the record was missing, or through a build that drops the history: the record since began anew.
      expect(refused(() => expectContinued(before, h1, 90))).to.match(/lost, restored or begun anew/);
    });

    it('when the position is past the watermark, then the record went back, and the walk must begin again', () => {
      expect(refused(() => expectContinued({ seq: 10, id: 3, history: 'h1' }, h1, 9))).to.match(/past the end of the record of changes/);
      expect(refused(() => expectContinued({ seq: 10, id: 3 }, { found: true }, 9))).to.match(/past the end/);
    });
  });

  describe('the search of a page', () => {
    const stampedOf = (body: ReturnType<typeof changesBody>) => JSON.stringify(body.query);

    it('when there is a watermark, then nothing above it is served', () => {
      expect(stampedOf(changesBody(9, null, 21))).to.contain('{"range":{"change_seq":{"lte":9}}}');
      expect(stampedOf(changesBody(9, { seq: 4, id: 1 }, 21))).to.contain('{"range":{"change_seq":{"lte":9,"gte":4}}}');
    });

    it('when there is no record, then every stamp is served: from the start, and after a position', () => {
      expect(stampedOf(changesBody(null, null, 21))).to.contain('{"exists":{"field":"change_seq"}}');
      expect(stampedOf(changesBody(null, { seq: 4, id: 1 }, 21))).to.contain('{"range":{"change_seq":{"gte":4}}}');
      expect(stampedOf(changesBody(null, { seq: 4, id: 1 }, 21))).to.not.contain('"lte"');
    });
  });
});

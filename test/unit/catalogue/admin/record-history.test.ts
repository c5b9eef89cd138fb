import { expect } from 'chai';
import { type HistoryCase, decideHistory } from '../../../../src/catalogue/admin/record-history.js';
import type { History, Watermark } from '../../../../src/wallpapers/store/change-log.js';

const history: History = { id: 'h1', index: 'uuid-1', since: 40 };
const watermark = (change_seq: number, kept?: History): Watermark => ({
  kind: 'watermark',
  change_seq,
  changed_at: 'then',
  ...(kept ? { history: kept } : {}),
});
const base: HistoryCase = {
  record: 'w-changes',
  alias: 'w',
  found: { made: false, kept: history },
  watermark: watermark(50, history),
  uuid: 'uuid-1',
  against: 'w-1',
  lastGiven: 50,
};

describe('the history of a record of changes', () => {
  it('when the record is the index its history began in, with a catalogue to compare, then the history goes on', () => {
    expect(decideHistory(base)).to.deep.equal({ go: 'on', history });
  });

  it('when a build before histories rewrote the watermark without one, then the history the mapping keeps goes on', () => {
    expect(decideHistory({ ...base, watermark: watermark(60) })).to.deep.equal({ go: 'on', history });
  });

  it('when only the watermark names the history (the first build with histories), then it goes on', () => {
    expect(decideHistory({ ...base, found: { made: false, kept: undefined } })).to.deep.equal({ go: 'on', history });
  });

  it('when the record is another index than the one its history began in (restored, copied), then a new one begins, and says why', () => {
    const decided = decideHistory({ ...base, uuid: 'uuid-2' });
    expect(decided).to.include({ go: 'anew', legacy: false });
    expect(decided.go === 'anew' && decided.why).to.match(/is not the index its history began in \(restored from a snapshot, or copied\)/);
  });

  it('when the catalogue is gone and the record has served, then a new one begins; not again before anything is recorded in it', () => {
    const decided = decideHistory({ ...base, against: null });
    expect(decided.go === 'anew' && decided.why).to.match(/w has no catalogue to compare the load with/);
    const bare: History = { id: 'h2', index: 'uuid-1', since: 50, bare: true };
    expect(decideHistory({ ...base, against: null, found: { made: false, kept: bare }, watermark: watermark(50, bare) })).to.deep.equal({
      go: 'on',
      history: bare,
    });
    expect(decideHistory({ ...base, against: null, found: { made: false, kept: bare }, watermark: watermark(51, bare) })).to.include({ go: 'anew' });
  });

  it('when a history began and the catalogue is deleted at once, with nothing recorded, then a reader may hold it all the same: a new one begins', () => {
    const restored: History = { id: 'h3', index: 'uuid-1', since: 61 };
    expect(decideHistory({ ...base, against: null, found: { made: false, kept: restored }, watermark: watermark(61, restored) })).to.include({
      go: 'anew',
    });
  });

  it('when the record was made before histories, then one begins in which readers without one go on, silently', () => {
    expect(decideHistory({ ...base, found: { made: false, kept: undefined }, watermark: watermark(50) })).to.deep.equal({
      go: 'anew',
      legacy: true,
      why: null,
    });
  });

  it('when the record had to be made while the catalogue holds changes, then a new one begins and says the record was missing', () => {
    const decided = decideHistory({ ...base, found: { made: true, kept: undefined }, watermark: null });
    expect(decided.go === 'anew' && decided.why).to.match(
      /the record of changes w-changes was missing \(deleted\?\) while w-1 holds changes up to number 50/,
    );
    expect(decideHistory({ ...base, found: { made: true, kept: undefined }, watermark: null, against: null, lastGiven: 0 })).to.deep.equal({
      go: 'anew',
      legacy: false,
      why: null,
    });
  });
});

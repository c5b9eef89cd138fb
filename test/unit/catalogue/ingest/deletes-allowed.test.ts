import { expect } from 'chai';
import { deletesAllowed, tooManyDeletes } from '../../../../src/catalogue/ingest/import-catalogue.js';

describe('deletesAllowed', () => {
  it('when no allowance is named, then a full import may delete half the catalogue it replaces, rounded down', () => {
    expect(deletesAllowed(undefined, 10_000)).to.equal(5000);
    expect(deletesAllowed(undefined, 7)).to.equal(3);
    expect(deletesAllowed(undefined, 1)).to.equal(0);
    expect(deletesAllowed(undefined, 0)).to.equal(0);
  });

  it('when an allowance is named, then it holds whatever the catalogue size, all included', () => {
    expect(deletesAllowed(0, 10_000)).to.equal(0);
    expect(deletesAllowed(9000, 10_000)).to.equal(9000);
    expect(deletesAllowed(Number.POSITIVE_INFINITY, 10)).to.equal(Number.POSITIVE_INFINITY);
  });
});

describe('tooManyDeletes', () => {
  it('when the default was passed, then the message says how many, out of what, and the option that lets it through', () => {
    const message = tooManyDeletes(6000, 10_000, undefined);
    expect(message).to.match(/^6000 of the 10000 live wallpapers are not in the input and would be deleted/);
    expect(message).to.contain('half of them (the default of --allow-deletes)');
    expect(message).to.contain('pass --allow-deletes 6000 (or all)');
  });

  it('when a named allowance was passed, then the message names it', () => {
    expect(tooManyDeletes(12, 100, 10)).to.contain('more than --allow-deletes 10;');
  });
});

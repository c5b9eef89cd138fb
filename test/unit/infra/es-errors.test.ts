import { errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { BackendUnavailable, InvalidInput } from '../../../src/errors.js';
import { EsItemError, translateEsError } from '../../../src/infra/es-errors.js';
import { silentLogger } from '../../../src/infra/logger.js';

const refused = (reason: string, type = 'illegal_argument_exception') =>
  new EsItemError(400, { type: 'search_phase_execution_exception', root_cause: [{ type, reason }] });

describe('translateEsError', () => {
  it('when Elasticsearch cannot be reached, then the backend is unavailable', () => {
    const err = translateEsError(new errors.ConnectionError('connect ECONNREFUSED'), silentLogger, 'search');
    expect(err).to.be.instanceOf(BackendUnavailable);
  });

  it('when a query has too many clauses, then the input is invalid and q is named', () => {
    const err = translateEsError(refused('maxClauseCount is set to 1024', 'too_many_nested_clauses'), silentLogger, 'search');
    expect(err).to.be.instanceOf(InvalidInput).with.property('parameter', 'q');
  });

  it('when a page goes past the result window, then the input is invalid and page is named', () => {
    const err = translateEsError(refused('Result window is too large, from + size must be less than or equal to: [10000]'), silentLogger, 'list');
    expect(err).to.be.instanceOf(InvalidInput).with.property('parameter', 'page');
  });

  for (const reason of ['no mapping found for field [suggest]', 'Field [suggest] is not a completion suggest field']) {
    it(`when the index has no completion field ("${reason}"), then suggestions are unavailable, with a message for clients`, () => {
      const err = translateEsError(refused(reason), silentLogger, 'suggest');
      expect(err).to.be.instanceOf(BackendUnavailable);
      expect(err.message).to.equal('Suggestions are not available for this catalogue yet, please retry later');
    });
  }

  it('when Elasticsearch refuses for any other reason, then it is our bug: a plain error, no domain error', () => {
    const err = translateEsError(refused('failed to parse date field'), silentLogger, 'search');
    expect(err).to.not.be.instanceOf(BackendUnavailable).and.not.be.instanceOf(InvalidInput);
    expect(err.message).to.not.include('failed to parse');
  });

  it('when an index is missing or closed, or Elasticsearch is overloaded, then the backend is unavailable', () => {
    expect(translateEsError(new EsItemError(404, { type: 'index_not_found_exception' }), silentLogger, 'get')).to.be.instanceOf(BackendUnavailable);
    expect(translateEsError(new EsItemError(400, { type: 'index_closed_exception' }), silentLogger, 'changes')).to.be.instanceOf(BackendUnavailable);
    expect(translateEsError(new EsItemError(429, { type: 'es_rejected_execution_exception' }), silentLogger, 'get')).to.be.instanceOf(
      BackendUnavailable,
    );
  });
});

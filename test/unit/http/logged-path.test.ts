import { expect } from 'chai';
import { loggablePath } from '../../../src/http/logged-path.js';
import { generateApiKey } from '../../../src/access/api-key.js';

describe('a path as a log line names it', () => {
  it('when a path is 15,000 characters long, then its first 200 are logged, marked as cut', () => {
    const logged = loggablePath(`/v1/${'a-'.repeat(7500)}`);
    expect(logged).to.have.length(201);
    expect(logged.endsWith('…')).to.equal(true);
  });

  it('when a path is short, then it is logged as it came', () => {
    expect(loggablePath('/v1/wallpapers/42/similar')).to.equal('/v1/wallpapers/42/similar');
  });

  it('when a key`s body straddles the cut, then it is redacted whole before the path is cut', () => {
    const apiKey = generateApiKey('AbCdEfGhIjKl');
    const path = `/${'x/'.repeat(90)}${apiKey.slice(4)}`;
    expect(path.slice(0, 200), 'cut first, 19 characters of it would be too short to be recognised').to.include(apiKey.slice(4, 16));
    expect(loggablePath(path)).to.not.include(apiKey.slice(4, 16));
  });

  it('when a key comes without its prefix, or behind a prefix encoded twice, then its body is redacted', () => {
    const apiKey = generateApiKey('AbCdEfGhIjKl');
    for (const path of [`/x/${apiKey.slice(4)}`, `/x/w%2570c_${apiKey.slice(4)}`, `/x/${apiKey.slice(17)}`]) {
      expect(loggablePath(path), path).to.not.include(apiKey.slice(20, 40));
    }
  });
});

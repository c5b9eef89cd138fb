import { expect } from 'chai';
import { parseSocketUrl } from '../../../src/infra/redis-socket-url.js';

describe('a Redis socket URL', () => {
  it('when its path is escaped, then the client is given the decoded path', () => {
    expect(parseSocketUrl('unix:///run/redis/redis.sock')).to.deep.equal({ path: '/run/redis/redis.sock' });
    expect(parseSocketUrl('unix:///var/run/my%20redis/redis.sock')).to.deep.equal({ path: '/var/run/my redis/redis.sock' });
  });

  it('when its query gives a user and a password, then the client signs in with them, decoded', () => {
    expect(parseSocketUrl('unix:///run/redis.sock?username=api&password=p%26ss%3Dword')).to.deep.equal({
      path: '/run/redis.sock',
      username: 'api',
      password: 'p&ss=word',
    });
  });

  it('when it names a host, another parameter, a repeated or empty one, a NUL or a path too long for a socket, then it says which', () => {
    const cases: [string, RegExp][] = [
      ['unix://host/run/redis.sock', /no host/],
      ['unix:///run/redis.sock?db=2', /only username and password/],
      ['unix:///run/redis.sock?password=a&password=b', /password must be given once/],
      ['unix:///run/redis.sock?password=', /password must be given once, not empty/],
      ['unix:///run/a%00b.sock', /NUL/],
      [`unix:///${'r'.repeat(107)}`, /longer than a socket path can be/],
    ];
    for (const [url, reason] of cases) expect(() => parseSocketUrl(url), url).to.throw(reason);
    expect(parseSocketUrl(`unix:///${'r'.repeat(106)}`).path).to.have.length(107);
  });
});

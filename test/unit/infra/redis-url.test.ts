import { expect } from 'chai';
import { socketPath } from '../../../src/infra/redis.js';

describe('a Redis socket URL', () => {
  it('when its path is escaped, then the client is given the decoded path', () => {
    expect(socketPath('unix:///run/redis/redis.sock')).to.equal('/run/redis/redis.sock');
    expect(socketPath('unix:///var/run/my%20redis/redis.sock')).to.equal('/var/run/my redis/redis.sock');
  });
});

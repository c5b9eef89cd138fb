import { expect } from 'chai';
import { execFileSync } from 'node:child_process';

function composeAvailable(): boolean {
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'pipe', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

describe('docker-compose.yml', () => {
  it('when validated by docker compose, then it is a valid file with the four services', function () {
    if (!composeAvailable()) this.skip();
    execFileSync('docker', ['compose', 'config', '-q'], { stdio: 'pipe', timeout: 30_000 });
    const services = execFileSync('docker', ['compose', 'config', '--services'], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(services).to.deep.equal(['api', 'elasticsearch', 'redis', 'seed']);
    const image = execFileSync('docker', ['compose', 'config', '--images'], { encoding: 'utf8' });
    expect(image).to.include('elasticsearch:8.19');
  });
});

import { expect } from 'chai';
import { toDetail } from '../../../src/wallpapers/catalogued.js';
import { contractViolations } from '../../support/contract.js';

const RATE_HEADERS = {
  'x-ratelimit-limit': '1000',
  'x-ratelimit-remaining': '999',
  'x-ratelimit-reset': '1800000000',
  'ratelimit-policy': '"free";q=1000;w=3600',
  ratelimit: '"free";r=999;t=3600',
  'x-request-id': 'abc-123',
};
const WALLPAPER = toDetail({
  id: 1,
  title: 't',
  description: 'd',
  url: 'https://i.example/1.jpg',
  thumbnail: 'https://i.example/t/1.jpg',
  resolution: '1920x1080',
  category: 'space',
  downloads: 3,
  created_at: '2024-01-01T00:00:00Z',
});
const ok = (headers: Record<string, string>) =>
  new Headers({ 'content-type': 'application/json', etag: '"abc"', 'cache-control': 'private, max-age=60', ...headers });

describe('the contract checker used by the integration suite', () => {
  it('when a get response conforms, then there are no violations', () => {
    expect(contractViolations({ method: 'GET', path: '/v1/wallpapers/1', status: 200, headers: ok(RATE_HEADERS), body: WALLPAPER })).to.deep.equal(
      [],
    );
  });

  it('when a wallpaper has an extra field or a bad date, then the body is flagged', () => {
    const violations = contractViolations({
      method: 'GET',
      path: '/v1/wallpapers/1',
      status: 200,
      headers: ok(RATE_HEADERS),
      body: { ...WALLPAPER, colour: 'red', created_at: '2024-01-01 00:00' },
    });
    expect(violations.join('\n')).to.include('body');
  });

  it('when a required rate-limit header is missing, then it is flagged', () => {
    const { ratelimit: _dropped, ...rest } = RATE_HEADERS;
    const violations = contractViolations({ method: 'GET', path: '/v1/wallpapers/1', status: 200, headers: ok(rest), body: WALLPAPER });
    expect(violations).to.deep.equal(['200 on /v1/wallpapers/{id} lacks required header RateLimit']);
  });

  it('when a status is not documented for the operation, then it is flagged', () => {
    const violations = contractViolations({ method: 'GET', path: '/v1/search?q=a', status: 418, headers: ok({}), body: {} });
    expect(violations).to.deep.equal(['status 418 is not documented for GET /v1/search']);
  });

  it('when an error body lacks a field, then it is flagged', () => {
    const violations = contractViolations({
      method: 'GET',
      path: '/v1/wallpapers?page=0',
      status: 400,
      headers: ok(RATE_HEADERS),
      body: { error: 'invalid_request', message: 'x' },
    });
    expect(violations.join('\n')).to.include("must have required property 'status'");
  });
});

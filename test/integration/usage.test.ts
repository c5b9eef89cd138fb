import { expect } from 'chai';
import { USAGE_CAP } from '../../src/access/store/sliding-window-lua.js';
import { createKey, request } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

describe('GET /v1/usage on real Redis', () => {
  const ctx = useCatalogue();
  const usage = (key: string | null = ctx.key) => request(ctx.app.url, '/v1/usage', { key: key ?? undefined });

  it('when a key reads its usage, then it gets the numbers of the headers, and reading spends nothing', async () => {
    const spent = await request(ctx.app.url, '/v1/wallpapers?per_page=1', { key: ctx.key });
    await request(ctx.app.url, '/v1/wallpapers/7', { key: ctx.key });
    const first = await usage();
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.include({ tier: 'free', limit: 1000, used: 2, remaining: 998, window: 3600 });
    expect(first.body.reset).to.equal(Number(spent.headers.get('x-ratelimit-reset')));
    expect(first.headers.get('x-ratelimit-remaining')).to.equal('998');
    expect(first.headers.get('cache-control')).to.equal('no-store');
    for (let i = 0; i < 5; i++) expect((await usage()).body.remaining).to.equal(998);
    const next = await request(ctx.app.url, '/v1/wallpapers/7', { key: ctx.key });
    expect(next.headers.get('x-ratelimit-remaining')).to.equal('997');
  });

  it(`when a key reads its usage more than ${USAGE_CAP.reads} times a minute, then 429 with Retry-After from the reads' own minute, while its quota still serves`, async () => {
    // An admitted request first: the account's hourly history then lives for a day, and the cap's
    // Retry-After must come from the reads' counter, not from it.
    expect((await request(ctx.app.url, '/v1/wallpapers/7', { key: ctx.key })).status).to.equal(200);
    for (let i = 0; i < USAGE_CAP.reads; i++) expect((await usage()).status).to.equal(200);
    const capped = await usage();
    expect(capped.status).to.equal(429);
    expect(capped.body.error).to.equal('rate_limit_exceeded');
    const wait = Number(capped.headers.get('retry-after'));
    expect(wait).to.be.within(1, 60);
    expect(capped.body.message, 'told apart from a spent quota').to.equal(
      `Usage read more than ${USAGE_CAP.reads} times a minute; the hourly quota is untouched. Please read it again in ${wait} ${wait === 1 ? 'second' : 'seconds'}`,
    );
    expect((await request(ctx.app.url, '/v1/wallpapers/7', { key: ctx.key })).status).to.equal(200);
    const other = await createKey(ctx.redis, 'premium');
    expect((await usage(other.apiKey)).status, 'the cap is per key').to.equal(200);
  });

  it('when usage is asked without a key or with a wrong one, then 401 or 403', async () => {
    expect((await usage(null)).status).to.equal(401);
    expect((await usage('wpc_notAKey')).status).to.equal(403);
    const wrong = `${ctx.key.slice(0, -4)}AAAA`;
    expect((await usage(wrong)).status).to.equal(403);
  });

  it('when usage is asked with a query parameter, then 400 names it, since the endpoint takes none', async () => {
    const res = await request(ctx.app.url, '/v1/usage?verbose=1', { key: ctx.key });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal("Unknown query parameter 'verbose' (allowed: none)");
    const several = await request(ctx.app.url, `/v1/usage?verbose=1&${'x'.repeat(300)}=2&__proto__=3`, { key: ctx.key });
    expect(several.status).to.equal(400);
    expect(several.body.message).to.equal(`Unknown query parameters 'verbose', '${'x'.repeat(40)}…', '__proto__' (allowed: none)`);
    const repeated = await request(ctx.app.url, '/v1/usage?verbose=1&verbose=2', { key: ctx.key });
    expect(repeated.body.message).to.equal("Unknown query parameter 'verbose' (allowed: none)");
  });

  it('when usage is asked with another method or spelling, then 405 or 404, never data', async () => {
    expect((await request(ctx.app.url, '/v1/usage', { key: ctx.key, method: 'POST' })).status).to.equal(405);
    for (const path of ['/V1/usage', '/v1/usage/', '/v1/Usage', '/v1/%75sage']) {
      expect((await request(ctx.app.url, path, { key: ctx.key })).status, path).to.equal(404);
    }
  });
});

describe('GET /v1/usage when the quota is spent', () => {
  const ctx = useCatalogue({ rateLimit: { tiers: { free: 3, premium: 10 } } });

  it('when a key has spent its quota, then usage still answers, with nothing remaining', async () => {
    for (let i = 0; i < 4; i++) await request(ctx.app.url, '/v1/wallpapers/7', { key: ctx.key });
    const res = await request(ctx.app.url, '/v1/usage', { key: ctx.key });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ limit: 3, used: 3, remaining: 0 });
    expect(res.body.reset).to.be.above(Date.now() / 1000);
  });
});

import { METHODS, request as httpRequest } from 'node:http';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createMetrics } from '../../src/infra/metrics.js';
import { createMetricsApp } from '../../src/ops/edge/metrics-app.js';
import { createReadiness } from '../../src/ops/store/readiness.js';
import { connectRedis, listen, request, startApp, testConfig, uniqueName } from '../support/harness.js';
import { useCatalogue } from './catalogue-context.js';

describe('operational endpoints', () => {
  const ctx = useCatalogue();

  it('when /healthz is asked without a key, then 200 {status: ok}', async () => {
    const res = await request(ctx.app.url, '/healthz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
  });

  it('when Elasticsearch, the alias and Redis are all there, then /readyz is 200 with every check ok', async () => {
    const res = await request(ctx.app.url, '/readyz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ready', checks: { elasticsearch: 'ok', alias: 'ok', redis: 'ok', serving: 'ok' } });
  });

  it('when the alias points at two indices, then /readyz is 503 naming the alias', async () => {
    const alias = uniqueName('test-two');
    await ctx.es.indices.create({ index: `${alias}-a` });
    await ctx.es.indices.create({ index: `${alias}-b` });
    await ctx.es.indices.updateAliases({ actions: [{ add: { index: `${alias}-a`, alias } }, { add: { index: `${alias}-b`, alias } }] });
    const app = await startApp({ config: testConfig({ indexAlias: alias }), es: ctx.es, redis: ctx.redis });
    try {
      const res = await request(app.url, '/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.message).to.equal('Not ready: alias failing');
    } finally {
      await app.close();
      await ctx.es.indices.delete({ index: `${alias}-a,${alias}-b` });
    }
  });

  it('when /readyz is polled many times within its cache time, then the backends are checked once', async () => {
    const calls: string[] = [];
    const count = (_err: unknown, event: { meta: { request: { params: { path: string } } } } | null) => {
      if (event) calls.push(event.meta.request.params.path);
    };
    ctx.es.diagnostic.on('request', count as never);
    try {
      // A clock that stands still: every poll falls within the cache time, however slow the machine.
      const readiness = createReadiness({ es: ctx.es, redis: ctx.redis, alias: ctx.alias, now: () => 0 });
      const app = await startApp({ config: ctx.config, es: ctx.es, redis: ctx.redis, readiness });
      try {
        const answers = await Promise.all(Array.from({ length: 10 }, () => request(app.url, '/readyz')));
        for (let i = 0; i < 5; i++) answers.push(await request(app.url, '/readyz'));
        expect(answers.every((r) => r.status === 200)).to.equal(true);
        expect(calls.filter((path) => path.includes('_cluster/health'))).to.have.length(1);
      } finally {
        await app.close();
      }
    } finally {
      ctx.es.diagnostic.off('request', count as never);
    }
  });

  it('when the process drains, then /readyz is 503 draining while the backends are fine', async () => {
    const readiness = createReadiness({ es: ctx.es, redis: ctx.redis, alias: ctx.alias });
    const app = await startApp({ config: ctx.config, es: ctx.es, redis: ctx.redis, readiness });
    try {
      expect((await request(app.url, '/readyz')).status).to.equal(200);
      readiness.drain();
      const res = await request(app.url, '/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.message).to.equal('Not ready: draining');
      expect(res.body.checks).to.deep.equal({ elasticsearch: 'ok', alias: 'ok', redis: 'ok', serving: 'draining' });
    } finally {
      await app.close();
    }
  });

  it('when the alias is missing, then /readyz is 503 naming it', async () => {
    const app = await startApp({ config: testConfig({ indexAlias: uniqueName('test-absent') }), es: ctx.es, redis: ctx.redis });
    try {
      const res = await request(app.url, '/readyz');
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({
        error: 'service_unavailable',
        message: 'Not ready: alias failing',
        status: 503,
        checks: { elasticsearch: 'ok', alias: 'failing', redis: 'ok', serving: 'ok' },
      });
    } finally {
      await app.close();
    }
  });

  it('when Redis cannot be reached, then /readyz is 503 naming redis, promptly', async () => {
    const redis = connectRedis('redis://127.0.0.1:9', 300);
    const app = await startApp({ config: ctx.config, es: ctx.es, redis });
    try {
      const started = Date.now();
      const res = await request(app.url, '/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.checks).to.deep.equal({ elasticsearch: 'ok', alias: 'ok', redis: 'failing', serving: 'ok' });
      expect(Date.now() - started).to.be.lessThan(3000);
    } finally {
      await app.close();
      redis.disconnect();
    }
  });

  it('when /v1/openapi.json is asked without a key, then the repository document is served', async () => {
    const res = await request(ctx.app.url, '/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(JSON.parse(readFileSync('openapi/openapi.json', 'utf8')));
    expect(res.body.openapi).to.equal('3.1.0');
  });

  it('when traffic has been served, then /metrics reports requests, latencies, backend calls and rejections', async () => {
    const metrics = createMetrics({ defaults: true });
    const config = testConfig({ indexAlias: ctx.alias }, { tiers: { free: 2, premium: 20 } });
    const app = await startApp({ config, es: ctx.es, redis: ctx.redis, metrics });
    const metricsListener = await listen(createMetricsApp(metrics));
    try {
      await request(app.url, '/v1/wallpapers', { key: ctx.key });
      // A word of the catalogue's own: a word that is not would first be looked for (one more multi-search).
      await request(app.url, '/v1/search?q=space', { key: ctx.key });
      await request(app.url, '/v1/wallpapers/1', { key: ctx.key });
      await fetch(`${app.url}/v1/wallpapers`, { method: 'OPTIONS' });
      await fetch(`${app.url}/v1/wallpapers/7`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
      });
      await fetch(`${app.url}/v1/wallpapers/7`, { method: 'DELETE' });
      await fetch(`${app.url}/v1/made-up`);
      const res = await fetch(`${metricsListener.url}/metrics`, { headers: { Origin: 'https://example.org' } });
      expect(res.headers.get('access-control-allow-origin'), 'outside CORS').to.equal(null);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.include('text/plain');
      const text = await res.text();
      expect(text).to.match(/wallpapers_http_requests_total\{method="GET",route="\/v1\/wallpapers",status="200"\} 1/);
      expect(text).to.match(/wallpapers_http_requests_total\{method="GET",route="\/v1\/wallpapers\/:id",status="429"\} 1/);
      expect(text).to.match(/wallpapers_http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="\/v1\/search",status="200"\} \d/);
      // A method a route does not take counts under that route; only a path no route has is unmatched.
      expect(text).to.match(/wallpapers_http_requests_total\{method="OPTIONS",route="\/v1\/wallpapers",status="200"\} 1/);
      expect(text).to.match(/wallpapers_http_requests_total\{method="DELETE",route="\/v1\/wallpapers\/:id",status="405"\} 1/);
      // A preflight, answered before the routers, counts under the route it asked about too.
      expect(text).to.match(/wallpapers_http_requests_total\{method="OPTIONS",route="\/v1\/wallpapers\/:id",status="204"\} 1/);
      expect(text).to.match(/wallpapers_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
      // The list and the search go out as multi-searches, the get as a multi-get; the response cache adds its own size-0 searches.
      // So does the question whether "space" occurs as typed (its typo is looked for only if not): three.
      expect(text).to.match(/wallpapers_elasticsearch_request_duration_seconds_count\{operation="msearch",outcome="ok"\} 3/);
      expect(text).to.match(/wallpapers_elasticsearch_batch_size_count\{operation="msearch"\} 2/);
      // Counted per client, which this suite's apps share; with one node no read is ever hedged.
      expect(text).to.match(/wallpapers_elasticsearch_hedges_total\{kind="reads"\} [1-9]\d*/);
      expect(text).to.match(/wallpapers_elasticsearch_hedges_total\{kind="hedges"\} 0/);
      expect(text).to.match(/wallpapers_elasticsearch_hedge_deadline_seconds 0\.1/);
      expect(text).to.match(/wallpapers_redis_command_duration_seconds_count\{operation="admit",outcome="ok"\} 3/);
      expect(text).to.match(/wallpapers_rate_limit_rejections_total\{reason="quota"\} 1/);
      expect(text).to.match(/wallpapers_response_cache_lookups_total\{result="(miss|bypass)"\} [12]/);
      expect(text).to.include('process_resident_memory_bytes');
    } finally {
      await app.close();
      await metricsListener.close();
    }
  });

  it('when a client sends every method Node accepts, then the request metrics keep seven by name and count the rest as other', async () => {
    const metrics = createMetrics({ defaults: false });
    const app = await startApp({ config: testConfig({ indexAlias: ctx.alias }), es: ctx.es, redis: ctx.redis, metrics });
    try {
      const methods = METHODS.filter((method) => method !== 'CONNECT');
      // node:http, as fetch refuses TRACE.
      for (const method of methods) {
        await new Promise<void>((resolve, reject) => {
          httpRequest(`${app.url}/nowhere`, { method }, (res) => res.resume().on('end', resolve))
            .on('error', reject)
            .end();
        });
      }
      const text = await metrics.registry.metrics();
      const labelled = new Set([...text.matchAll(/wallpapers_http_requests_total\{method="([^"]+)"/g)].map((match) => match[1]));
      expect([...labelled].sort()).to.deep.equal(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'other']);
      const others = [...text.matchAll(/wallpapers_http_requests_total\{method="other",[^}]*\} (\d+)/g)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
      expect(others).to.equal(methods.length - 7);
    } finally {
      await app.close();
    }
  });

  it('when /metrics is asked on the API listener, then it is 404: metrics have a listener of their own', async () => {
    const res = await request(ctx.app.url, '/metrics', { headers: { Origin: 'https://example.org' } });
    expect(res.status).to.equal(404);
    expect(res.text).to.not.include('wallpapers_http_requests_total');
  });
});

import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('when the environment is empty, then local defaults apply', () => {
    const config = loadConfig({});
    expect(config).to.include({
      port: 3000,
      elasticsearchUrl: 'http://127.0.0.1:9200',
      redisUrl: 'redis://127.0.0.1:6379',
      indexAlias: 'wallpapers',
      maxResultWindow: 10000,
    });
  });

  it('when values are set, then they are parsed and trailing slashes removed', () => {
    const config = loadConfig({ PORT: '8080', ELASTICSEARCH_URL: 'http://es:9200/', IMAGE_BASE_URL: 'https://cdn.example/img/' });
    expect(config).to.include({ port: 8080, elasticsearchUrl: 'http://es:9200', imageBaseUrl: 'https://cdn.example/img' });
  });

  it('when Elasticsearch batching is left alone or set, then it is four calls in flight of up to 32, or what was set', () => {
    expect(loadConfig({}).elasticsearchBatching).to.deep.equal({ maxInFlight: 4, maxBatchSize: 32 });
    expect(loadConfig({ ELASTICSEARCH_BATCH_CONCURRENCY: '2', ELASTICSEARCH_BATCH_SIZE: '1' }).elasticsearchBatching).to.deep.equal({ maxInFlight: 2, maxBatchSize: 1 });
    expect(() => loadConfig({ ELASTICSEARCH_BATCH_CONCURRENCY: '0', ELASTICSEARCH_BATCH_SIZE: '1.5' }))
      .to.throw(ConfigError, /ELASTICSEARCH_BATCH_CONCURRENCY[\s\S]*ELASTICSEARCH_BATCH_SIZE|ELASTICSEARCH_BATCH_SIZE[\s\S]*ELASTICSEARCH_BATCH_CONCURRENCY/);
  });

  it('when several keys are bad, then every one is named', () => {
    try {
      loadConfig({ PORT: 'eighty', REDIS_URL: 'http://nope', LOG_LEVEL: 'chatty', INDEX_ALIAS: 'Bad Alias' });
      expect.fail('expected ConfigError');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const key of ['PORT', 'REDIS_URL', 'LOG_LEVEL', 'INDEX_ALIAS']) expect(problems).to.include(key);
    }
  });
});

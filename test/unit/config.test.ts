import { expect } from 'chai';
import { cannotReach, ConfigError, displayUrl, loadConfig, parseSocketUrl } from '../../src/config.js';

describe('configuration', () => {
  it('when INDEX_ALIAS ends in -changes, the name of an alias`s record of changes, then it is refused saying so', () => {
    expect(() => loadConfig({ INDEX_ALIAS: 'wallpapers-changes' })).to.throw(/INDEX_ALIAS: must not end in -changes/);
    expect(loadConfig({ INDEX_ALIAS: 'changes-of-wallpapers' }).indexAlias).to.equal('changes-of-wallpapers');
  });

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

  it('when RESPONSE_CACHE_MB is not set, then results are cached in 32 MB for 5 s, and 0 turns the cache off', () => {
    expect(loadConfig({}).responseCache).to.deep.equal({ maxBytes: 32 * 1024 * 1024, ttlMs: 5000, checkIntervalMs: 1000 });
    expect(loadConfig({ RESPONSE_CACHE_MB: '0' }).responseCache.maxBytes).to.equal(0);
  });

  it('when HOST is not set, then the server binds loopback only, and the portal checks origins against the address connected to', () => {
    const config = loadConfig({});
    expect(config.host).to.equal('127.0.0.1');
    expect(config.portal.publicOrigins).to.deep.equal([]);
    expect(config.http).to.deep.equal({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      maxConnectionsPerAddress: 256,
      maxPipelinedPerConnection: 32,
    });
  });

  it('when PUBLIC_ORIGIN is set, then its origins are kept lower-case, and a path or a bare host is refused naming it', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://Developers.Example.com,http://localhost:3000' }).portal.publicOrigins).to.deep.equal([
      'https://developers.example.com',
      'http://localhost:3000',
    ]);
    for (const bad of ['developers.example.com', 'https://example.com/portal']) {
      expect(() => loadConfig({ PUBLIC_ORIGIN: bad }), bad).to.throw(ConfigError, /PUBLIC_ORIGIN/);
    }
  });

  it('when values are set, then they are parsed and trailing slashes removed', () => {
    const config = loadConfig({ PORT: '8080', ELASTICSEARCH_URL: 'http://es:9200/', IMAGE_BASE_URL: 'https://cdn.example/img/' });
    expect(config).to.include({ port: 8080, elasticsearchUrl: 'http://es:9200', imageBaseUrl: 'https://cdn.example/img' });
  });

  it('when Elasticsearch batching is left alone or set, then it is four calls in flight of up to 32, or what was set', () => {
    expect(loadConfig({}).elasticsearchBatching).to.deep.equal({ maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000 });
    expect(loadConfig({ ELASTICSEARCH_BATCH_CONCURRENCY: '2', ELASTICSEARCH_BATCH_SIZE: '1' }).elasticsearchBatching).to.deep.equal({
      maxInFlight: 2,
      maxBatchSize: 1,
      maxQueued: 1000,
    });
    expect(() => loadConfig({ ELASTICSEARCH_BATCH_CONCURRENCY: '0', ELASTICSEARCH_BATCH_SIZE: '1.5' })).to.throw(
      ConfigError,
      /ELASTICSEARCH_BATCH_CONCURRENCY[\s\S]*ELASTICSEARCH_BATCH_SIZE|ELASTICSEARCH_BATCH_SIZE[\s\S]*ELASTICSEARCH_BATCH_CONCURRENCY/,
    );
  });

  it('when REDIS_URL names a Unix socket, then it is kept as given, signing in by its query; with a host, another query, or beside other URLs, it is refused', () => {
    expect(loadConfig({ REDIS_URL: 'unix:///run/redis/redis.sock' }).redisUrl).to.equal('unix:///run/redis/redis.sock');
    expect(loadConfig({ REDIS_URL: 'unix:///run/redis.sock?username=api&password=s3cret' }).redisUrl).to.equal(
      'unix:///run/redis.sock?username=api&password=s3cret',
    );
    for (const bad of [
      'unix:///run/redis.sock?s3cret',
      'unix:///run/redis.sock?password=ab&s3cret',
      'unix:///run/redis.sock?password=ab#s3cret',
      'unix://redis-host/run/redis.sock',
      'unix://:s3cret@/run/redis.sock',
      'unix:///run/redis.sock?db=2&password=s3cret',
      'unix:///run/redis.sock?password=s3cret&password=other',
      'unix:///run/redis.sock,redis://127.0.0.1:6379',
      'unix:///run/redis%zz.sock?password=s3cret',
      'unix:///run/a%00b.sock',
      `unix:///run/${'r'.repeat(110)}.sock?password=s3cret`,
      'unix://',
    ]) {
      try {
        loadConfig({ REDIS_URL: bad });
        expect.fail(`accepted ${bad}`);
      } catch (err) {
        expect(err, bad).to.be.instanceOf(ConfigError);
        const problems = (err as ConfigError).problems.join('\n');
        expect(problems, bad).to.include('REDIS_URL');
        expect(problems, `${bad}: the password is never shown`).not.to.include('s3cret');
      }
    }
  });

  it('when a command cannot reach a service on this machine, then it says how to start the local stack; a remote one it does not', () => {
    const hint = 'npm run stack:start';
    expect(cannotReach('Elasticsearch', 'http://127.0.0.1:9200', 'connect ECONNREFUSED')).to.equal(
      `cannot reach Elasticsearch at http://127.0.0.1:9200: connect ECONNREFUSED; if it is the local stack, start it with: ${hint}`,
    );
    expect(cannotReach('Redis', 'redis://u:s3cret@localhost:6379/15', 'refused', 'it holds the catalogue lock')).to.equal(
      `cannot reach Redis at redis://***@localhost:6379/15 (it holds the catalogue lock): refused; if it is the local stack, start it with: ${hint}`,
    );
    expect(cannotReach('Elasticsearch', 'http://[::1]:9200,http://127.0.0.1:9201', 'x')).to.include(hint);
    for (const remote of ['http://es:9200', 'http://127.0.0.1:9200,http://es-2:9200', 'unix:///run/redis.sock', 'not a url']) {
      expect(cannotReach('Redis', remote, 'refused'), remote).not.to.include(hint);
    }
  });

  it('when a service took the connection but answered nothing in time, then it is said to be running but stalled, not to be started', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://redis:6379']) {
      const said = cannotReach('Redis', url, 'Command timed out');
      expect(said, url).to.equal(
        `cannot reach Redis at ${url}: Command timed out; it took the connection but did not answer in time: it is running, but stalled or overloaded`,
      );
      expect(said, url).not.to.include('npm run stack:start');
    }
    expect(cannotReach('Elasticsearch', 'http://127.0.0.1:9200', 'Request timed out')).to.include('stalled or overloaded');
    // Timed out connecting: nothing took the connection.
    for (const why of ['connect ETIMEDOUT', 'Connect Timeout Error'])
      expect(cannotReach('Redis', 'redis://127.0.0.1:6379', why), why).to.include('npm run stack:start');
  });

  it('when a URL is shown in a message or a log, then its user, password, query and fragment are not, nor a piece that is not a URL', () => {
    expect(displayUrl('redis://127.0.0.1:6379')).to.equal('redis://127.0.0.1:6379');
    expect(displayUrl('http://es:9200')).to.equal('http://es:9200');
    expect(displayUrl('redis://api:s3cret@redis:6379/0')).to.equal('redis://***@redis:6379/0');
    expect(displayUrl('redis://a:s3cret@one:7001,redis://two:7002')).to.equal('redis://***@one:7001,redis://two:7002');
    // Passwords as they are mistyped: in the query, with a raw &, # or comma, or without password=.
    const shown = [
      'redis://redis:6379/?password=s3cret',
      'unix:///run/redis.sock?username=api&password=s3cret',
      'unix:///run/redis.sock?s3cret',
      'unix:///run/redis.sock?password:s3cret',
      'unix:///run/redis.sock?password=ab&s3cret',
      'redis://127.0.0.1:1/?password=ab#s3cret',
      'unix:///run/redis.sock?password=ab,s3cret:tail',
      'redis://127.0.0.1:1/?password=ab,s3cret',
    ].map(displayUrl);
    for (const line of shown) expect(line).not.to.include('s3cret');
    expect(shown[1]).to.equal('unix:///run/redis.sock?***');
    expect(shown[6]).to.equal('unix:///run/redis.sock?***,(not shown: not a URL)');
  });

  it('when a URL key lacks its scheme, then the one problem says the rule in words, never the schema pattern nor the value', () => {
    try {
      loadConfig({ ELASTICSEARCH_URL: 'elastic:s3cret@127.0.0.1:9200', IMAGE_BASE_URL: 'cdn.example/img' });
      expect.fail('expected ConfigError');
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).to.deep.equal([
        'ELASTICSEARCH_URL: must be one or more http:// or https:// URLs, comma-separated, e.g. http://127.0.0.1:9200 (got "(not shown: not a URL)")',
        'IMAGE_BASE_URL: must be an http:// or https:// URL, e.g. https://images.example.com (got "(not shown: no scheme such as http://)")',
      ]);
    }
  });

  it('when a whole number is written otherwise than in decimal digits (hex, exponent, fraction), then it is refused naming the key, not read as JavaScript reads it', () => {
    for (const value of ['0x10', '1e3', '4.0', '+4', '4x', 'Infinity']) {
      try {
        loadConfig({ MAX_IN_FLIGHT_PER_ACCOUNT: value });
        expect.fail(`expected ConfigError for ${value}`);
      } catch (err) {
        expect(err, value).to.be.instanceOf(ConfigError);
        expect((err as ConfigError).problems, value).to.deep.equal([
          `MAX_IN_FLIGHT_PER_ACCOUNT: must be a whole number in decimal digits (got ${JSON.stringify(value)})`,
        ]);
      }
    }
    expect(loadConfig({ MAX_IN_FLIGHT_PER_ACCOUNT: '16', AUTH_FAILURE_LIMIT: ' 7 ' })).to.include({ maxInFlightPerAccount: 16 });
    expect(loadConfig({ AUTH_FAILURE_LIMIT: '7' }).rateLimit.authFailureLimit).to.equal(7);
  });

  it("when MAX_WAITING_PER_ACCOUNT is left alone or set, then an account's line holds 64 or what was set; 0 or past 100,000, start-up fails naming it", () => {
    expect(loadConfig({}).maxWaitingPerAccount).to.equal(64);
    expect(loadConfig({ MAX_WAITING_PER_ACCOUNT: '8' }).maxWaitingPerAccount).to.equal(8);
    for (const value of ['0', '100001', 'many', '1.5']) {
      expect(() => loadConfig({ MAX_WAITING_PER_ACCOUNT: value }), value)
        .to.throw(ConfigError)
        .that.satisfies((err: ConfigError) => err.problems.length === 1 && err.problems[0]!.startsWith('MAX_WAITING_PER_ACCOUNT'));
    }
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

  it('when TRUST_PROXY (replaced by TRUST_PROXY_HOPS) is set, then start-up fails naming it and its replacement, with the other bad keys', () => {
    try {
      loadConfig({ TRUST_PROXY: 'true', PORT: 'eighty' });
      expect.fail('expected ConfigError');
    } catch (err) {
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).to.include('TRUST_PROXY: replaced by TRUST_PROXY_HOPS').and.include('PORT');
    }
    expect(loadConfig({ TRUST_PROXY_HOPS: '2' }).trustProxyHops).to.equal(2);
  });

  it('when left alone, then failed authentications are counted per minute and Redis is given up on after 3 failures for 3 s', () => {
    const config = loadConfig({});
    expect(config.rateLimit).to.include({ authFailureWindowSeconds: 60, authGraceMs: 60_000 });
    expect(config.redisBreaker).to.deep.equal({ failureThreshold: 3, openMs: 3000 });
    expect(config.trustProxyHops).to.equal(0);
  });

  it('when CURSOR_SECRET is set, then it seals cursors; too short, then start-up fails naming it without showing it', () => {
    expect(loadConfig({}).cursorSecret).to.equal(null);
    expect(loadConfig({ CURSOR_SECRET: 'k'.repeat(32) }).cursorSecret).to.equal('k'.repeat(32));
    try {
      loadConfig({ CURSOR_SECRET: 'short-secret-value' });
      expect.fail('expected a ConfigError');
    } catch (err) {
      expect((err as Error).message)
        .to.include('CURSOR_SECRET')
        .and.include('value not shown')
        .and.not.include('short-secret-value');
    }
  });
});

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

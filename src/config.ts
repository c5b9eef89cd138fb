import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface Config {
  port: number;
  host: string;
  elasticsearchUrl: string;
  elasticsearchTimeoutMs: number;
  redisUrl: string;
  redisTimeoutMs: number;
  indexAlias: string;
  imageBaseUrl: string;
  maxResultWindow: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Proxies in front of the API that append to X-Forwarded-For; 0: the peer address is the client. */
  trustProxyHops: number;
  /** /metrics is served on this address and port only, never on the API listener; port 0 turns it off. */
  metricsHost: string;
  metricsPort: number;
  shutdownTimeoutMs: number;
  /** After SIGTERM, readiness reports draining for this long before the listener closes. */
  shutdownDrainMs: number;
  /** Seals cursors (CURSOR_SECRET); null: the app seals them with a random secret of its own. */
  cursorSecret: string | null;
  portal: PortalConfig;
  http: HttpLimitsConfig;
  rateLimit: RateLimitConfig;
  /**
   * Requests of one account this process works on at once; more wait their turn (see
   * createAccountLanes). 0: no limit.
   */
  maxInFlightPerAccount: number;
  /** Requests of one account that may wait for a lane (MAX_WAITING_PER_ACCOUNT); past them, 429. */
  maxWaitingPerAccount: number;
  redisBreaker: RedisBreakerConfig;
  responseCache: ResponseCacheConfig;
  elasticsearchBatching: ElasticsearchBatchingConfig;
  meaning: MeaningConfig;
}

export interface MeaningConfig {
  /** Where scripts/fetch-model.sh put the sentence model (MEANING_MODEL_DIR); null: search matches the words typed only. */
  modelDir: string | null;
  /** Cosine similarity a catalogue word needs to stand in for a query word. */
  floor: number;
  /** Catalogue words at most per query word. */
  top: number;
  /** The catalogue's words are read again this often. */
  refreshMs: number;
}

export interface PortalConfig {
  enabled: boolean;
  defaultTier: string;
  /** Origins the portal's forms may come from (PUBLIC_ORIGIN), lower-case; empty: the address connected to. */
  publicOrigins: string[];
  /** Password hashes at once (each holds one of libuv's 4 threads and a core), and waiting beyond them. */
  hashConcurrency: number;
  hashQueue: number;
  /** Of those, the places one client address may hold, running or waiting (PASSWORD_HASHES_PER_CLIENT). */
  hashesPerClient: number;
}

export interface HttpLimitsConfig {
  /** A request's headers must have arrived this long after its connection started to be read. */
  headersTimeoutMs: number;
  /** The whole request, body included. */
  requestTimeoutMs: number;
  /**
   * Open connections per client address (past it a new one is closed at once), and requests of the
   * address worked on at once over them (past it, 503). 0: no cap (behind a proxy).
   */
  maxConnectionsPerAddress: number;
  /** Requests of one connection worked on at once (pipelined); past it, 503 at once. 0: no limit. */
  maxPipelinedPerConnection: number;
}

export interface ElasticsearchBatchingConfig {
  /** Multi-gets and multi-searches in flight at once, each kind; requests arriving meanwhile wait and go together. */
  maxInFlight: number;
  /** Gets or searches per Elasticsearch call at most. */
  maxBatchSize: number;
  /** Distinct reads of each kind waiting for a call; past it a request is refused with 503 at once. */
  maxQueued: number;
}

export interface ResponseCacheConfig {
  /** Bytes of repository results kept in process; 0 turns the cache off. */
  maxBytes: number;
  ttlMs: number;
  /** A cached result is served only if the catalogue was confirmed unchanged this recently. */
  checkIntervalMs: number;
}

export interface RateLimitConfig {
  /** Requests per window for each tier. */
  tiers: Record<string, number>;
  windowSeconds: number;
  /** Failed authentications allowed per client IP per authFailureWindowSeconds. */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  /**
   * While Redis does not answer, a key is still admitted (by the in-process limiter) if Redis
   * verified it no more than this long before Redis last answered.
   */
  authGraceMs: number;
}

export interface RedisBreakerConfig {
  /** Consecutive failed Redis calls (timeouts, refused connections) that open the breaker. */
  failureThreshold: number;
  /** While open, calls fail at once; a background PING probes Redis this often. */
  openMs: number;
}

/** Defaults of the Elasticsearch read settings, shared with repositories built outside the app (tests, tools). */
export const ELASTICSEARCH_READ_DEFAULTS = { timeoutMs: 5000, maxInFlight: 4, maxBatchSize: 32, maxQueued: 1000 } as const;

/** How long CURSOR_SECRET may be, wherever it is read from (the environment, CURSOR_SECRET_FILE). */
export const CURSOR_SECRET_LENGTH = { min: 32, max: 1024 } as const;

const ENV_SCHEMA = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    // Loopback unless told otherwise: the portal takes passwords, and plain HTTP on every interface
    // is not a default to ship. The Docker image sets 0.0.0.0 (its port is published by compose).
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 120000, default: 10000 },
    REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 1000, maximum: 600000, default: 30000 },
    MAX_CONNECTIONS_PER_ADDRESS: { type: 'integer', minimum: 0, maximum: 100000, default: 256 },
    // Well above what a client that pipelines at all sends (browsers and the official clients do
    // not), and below one account's lanes and line (4 + 64): one connection alone cannot fill them.
    MAX_PIPELINED_PER_CONNECTION: { type: 'integer', minimum: 0, maximum: 100000, default: 32 },
    // One node, or several separated by commas (a cluster: a read that fails on one is retried on another).
    ELASTICSEARCH_URL: { type: 'string', pattern: '^https?://[^\\s,]+(,https?://[^\\s,]+)*$', default: 'http://127.0.0.1:9200' },
    ELASTICSEARCH_TIMEOUT_MS: { type: 'integer', minimum: 50, maximum: 60000, default: ELASTICSEARCH_READ_DEFAULTS.timeoutMs },
    ELASTICSEARCH_BATCH_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 256, default: ELASTICSEARCH_READ_DEFAULTS.maxInFlight },
    ELASTICSEARCH_BATCH_SIZE: { type: 'integer', minimum: 1, maximum: 1000, default: ELASTICSEARCH_READ_DEFAULTS.maxBatchSize },
    ELASTICSEARCH_QUEUE_MAX: { type: 'integer', minimum: 1, maximum: 100000, default: ELASTICSEARCH_READ_DEFAULTS.maxQueued },
    // One Redis, or several seeds of a Redis Cluster separated by commas, or one Redis on this host
    // by its socket file (unix:///path/redis.sock[?password=…]): see parseSocketUrl below.
    REDIS_URL: {
      type: 'string',
      pattern: '^(rediss?://[^\\s,]+(,rediss?://[^\\s,]+)*|unix:///[^\\s,?#]+(\\?[^\\s,#]*)?)$',
      default: 'redis://127.0.0.1:6379',
    },
    REDIS_TIMEOUT_MS: { type: 'integer', minimum: 10, maximum: 60000, default: 1000 },
    INDEX_ALIAS: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,100}$', default: 'wallpapers' },
    IMAGE_BASE_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://images.wallpapers.example' },
    MAX_RESULT_WINDOW: { type: 'integer', minimum: 100, maximum: 1000000, default: 10000 },
    LOG_LEVEL: { type: 'string', enum: ['debug', 'info', 'warn', 'error', 'silent'], default: 'info' },
    TRUST_PROXY_HOPS: { type: 'integer', minimum: 0, maximum: 16, default: 0 },
    METRICS_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 9464 },
    SHUTDOWN_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 120000, default: 10000 },
    SHUTDOWN_DRAIN_MS: { type: 'integer', minimum: 0, maximum: 60000, default: 2000 },
    RATE_LIMIT_TIERS: {
      type: 'string',
      // Limits 1..9,999,999: the limiter keeps 4 bytes per request in the window.
      pattern: '^[a-z][a-z0-9_-]{0,31}:[1-9][0-9]{0,6}(,[a-z][a-z0-9_-]{0,31}:[1-9][0-9]{0,6})*$',
      default: 'free:1000,premium:10000',
    },
    RATE_LIMIT_WINDOW_SECONDS: { type: 'integer', minimum: 1, maximum: 86400, default: 3600 },
    AUTH_FAILURE_LIMIT: { type: 'integer', minimum: 1, maximum: 1000000, default: 100 },
    AUTH_FAILURE_WINDOW_SECONDS: { type: 'integer', minimum: 1, maximum: 3600, default: 60 },
    AUTH_GRACE_MS: { type: 'integer', minimum: 0, maximum: 3600000, default: 60000 },
    // Four: Elasticsearch's search pool on two cores has four threads, so one account cannot hold
    // more than that of it; a client that sends more at once is served four at a time.
    MAX_IN_FLIGHT_PER_ACCOUNT: { type: 'integer', minimum: 0, maximum: 100000, default: 4 },
    // Room for a downloader's parallel connections (aria2 opens 16) many times over, while one
    // account's line holds at most about 1.7 MB (some 27 KB a request).
    MAX_WAITING_PER_ACCOUNT: { type: 'integer', minimum: 1, maximum: 100000, default: 64 },
    REDIS_BREAKER_FAILURES: { type: 'integer', minimum: 1, maximum: 1000, default: 3 },
    REDIS_BREAKER_OPEN_MS: { type: 'integer', minimum: 100, maximum: 60000, default: 3000 },
    // Seals cursors; every instance behind one load balancer needs the same one.
    CURSOR_SECRET: { type: 'string', minLength: CURSOR_SECRET_LENGTH.min, maxLength: CURSOR_SECRET_LENGTH.max },
    // The developer portal under /portal (docs/portal.md); its sign-ups start on this tier.
    PORTAL_ENABLED: { type: 'boolean', default: true },
    PORTAL_DEFAULT_TIER: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,31}$', default: 'free' },
    // The portal's public address(es), as browsers see them: e.g. https://developers.example.com.
    PUBLIC_ORIGIN: { type: 'string', pattern: '^https?://[^\\s/,]+(,https?://[^\\s/,]+)*$' },
    PASSWORD_HASH_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 1 },
    PASSWORD_HASH_QUEUE: { type: 'integer', minimum: 0, maximum: 10000, default: 8 },
    PASSWORD_HASHES_PER_CLIENT: { type: 'integer', minimum: 1, maximum: 10000, default: 2 },
    // 32 MB holds the benchmark's hot sets (5,000 details of get-random, zipf-mix's 2,000 answers),
    // which 16 MB evicted before they came round again: 1.8x and 1.5x the cached throughput, for
    // 0-8 MB more peak RSS (bench/results/floor).
    RESPONSE_CACHE_MB: { type: 'integer', minimum: 0, maximum: 4096, default: 32 },
    RESPONSE_CACHE_TTL_MS: { type: 'integer', minimum: 100, maximum: 3600000, default: 5000 },
    RESPONSE_CACHE_CHECK_MS: { type: 'integer', minimum: 50, maximum: 60000, default: 1000 },
    // 'off' turns meaning off; a relative path is read from the working directory.
    MEANING_MODEL_DIR: { type: 'string', minLength: 1, default: 'models/minilm' },
    MEANING_FLOOR: { type: 'number', minimum: 0.3, maximum: 1, default: 0.6 },
    MEANING_WORDS: { type: 'integer', minimum: 1, maximum: 10, default: 4 },
    MEANING_REFRESH_MS: { type: 'integer', minimum: 1000, maximum: 86400000, default: 300000 },
  },
} as const;

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true });
const DECIMAL_INTEGER = /^-?\d+$/;
addFormats(ajv);
const validateEnv = ajv.compile(ENV_SCHEMA);

// Never echoed in a configuration error, whatever is wrong with them.
const SECRET_KEYS = new Set(['CURSOR_SECRET']);

const SHOWN_SCHEMES = new Set(['http:', 'https:', 'redis:', 'rediss:', 'unix:']);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A command's line for a service it could not reach: where (as displayUrl shows it, with `role`
 * after it) and why; and, when the service is on this machine, how to start it, as a local stack
 * that is not running is what a developer meets most. A remote one is the operator's to know.
 * One that answered nothing in time is said to be running but stalled, wherever it is.
 */
export function cannotReach(service: 'Elasticsearch' | 'Redis', url: string, why: string, role = ''): string {
  const onThisMachine = url.split(',').every((piece) => {
    try {
      return LOOPBACK_HOSTS.has(new URL(piece).hostname);
    } catch {
      return false;
    }
  });
  // A server that took the connection and then said nothing is running already: starting it is
  // not the cure (a Redis stopped with SIGSTOP, or busy in a long script).
  const hint =
    /timed? ?out/i.test(why) && !/connect/i.test(why)
      ? '; it took the connection but did not answer in time: it is running, but stalled or overloaded'
      : onThisMachine
        ? '; if it is the local stack, start it with: npm run stack:start'
        : '';
  return `cannot reach ${service} at ${displayUrl(url)}${role === '' ? '' : ` (${role})`}: ${why}${hint}`;
}

/**
 * A URL as it may be shown or logged: its user and password replaced, and its query and fragment
 * too, names included (a socket URL signs in by its query, clients accept `?password=` on others,
 * and a password written with a raw `&`, `#` or `,`, or without `password=`, lands in a name, the
 * fragment or the next piece). A piece that is not a URL of a kind configured here is not shown.
 */
export function displayUrl(url: string): string {
  if (url.includes(',')) return url.split(',').map(displayUrl).join(',');
  try {
    const parsed = new URL(url);
    if (!SHOWN_SCHEMES.has(parsed.protocol)) return '(not shown: not a URL)';
    if (parsed.username === '' && parsed.password === '' && parsed.search === '' && parsed.hash === '') return url;
    if (parsed.username !== '' || parsed.password !== '') {
      parsed.username = '***';
      parsed.password = '';
    }
    const hidden = parsed.search !== '' || parsed.hash !== '';
    parsed.search = '';
    parsed.hash = '';
    return hidden ? `${parsed.toString()}?***` : parsed.toString();
  } catch {
    // Not shown: a value that does not parse may still hold a password (user:secret@host:9200).
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? '(unparseable URL)' : '(not shown: no scheme such as http://)';
  }
}

const URL_KEYS = new Set(['ELASTICSEARCH_URL', 'REDIS_URL', 'IMAGE_BASE_URL']);

// What a URL key takes, said when its value breaks the schema's pattern or format.
const URL_RULES: Record<string, string> = {
  ELASTICSEARCH_URL: 'must be one or more http:// or https:// URLs, comma-separated, e.g. http://127.0.0.1:9200',
  IMAGE_BASE_URL: 'must be an http:// or https:// URL, e.g. https://images.example.com',
};

// Keys that changed meaning: set, they would be silently ignored, so they are refused by name.
const REPLACED: Record<string, string> = {
  TRUST_PROXY: 'replaced by TRUST_PROXY_HOPS, the number of proxies in front of the API (X-Forwarded-For is read from the right)',
  RATE_LIMIT_BUCKETS: 'no longer used: the limiter keeps the time of each request in the window (an exact sliding window)',
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

function parseTiers(spec: string): Record<string, number> {
  return Object.fromEntries(
    spec.split(',').map((pair) => {
      const [tier, limit] = pair.split(':');
      return [tier as string, Number(limit)];
    }),
  );
}

/** Where a `unix://` Redis URL points, and how to sign in there. */
export interface RedisSocket {
  path: string;
  username?: string;
  password?: string;
}

export const UNIX_SCHEME = 'unix://';

// sun_path holds 108 bytes with its terminating NUL; a longer path fails only when connecting.
const SOCKET_PATH_MAX_BYTES = 107;
const SIGN_IN = new Set(['username', 'password']);

/**
 * Reads `unix:///path/redis.sock[?username=…&password=…]`, as redis-py and other clients spell it:
 * a Redis on the API's own host that opens no TCP port. Redis still asks a socket client to sign
 * in when it has `requirepass` or ACL users, so the query may carry them, and nothing else. The
 * path is read percent-decoded. Throws an Error saying what is wrong, for the configuration's
 * message.
 */
export function parseSocketUrl(url: string): RedisSocket {
  if (!url.startsWith(`${UNIX_SCHEME}/`)) throw new Error('a socket URL is unix:///path, with no host');
  const parsed = new URL(url);
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    throw new Error('its path does not decode');
  }
  if (path.includes('\0')) throw new Error('its path holds a NUL byte');
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX_BYTES)
    throw new Error(`its path is longer than a socket path can be (${SOCKET_PATH_MAX_BYTES} bytes)`);
  const socket: RedisSocket = { path };
  for (const name of new Set(parsed.searchParams.keys())) {
    const values = parsed.searchParams.getAll(name);
    // The name is not echoed: a password written without `password=` would be the name.
    if (!SIGN_IN.has(name)) throw new Error('it takes only username and password in its query');
    if (values.length > 1 || values[0] === '') throw new Error(`${name} must be given once, not empty`);
    socket[name as 'username' | 'password'] = values[0];
  }
  return socket;
}

/** Whether a URL's path decodes (a socket path is read decoded: `%zz` would fail at start-up). */
function decodable(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname);
    return true;
  } catch {
    return false;
  }
}

/** Reads the known keys from an environment, applies defaults, and fails naming every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ENV_SCHEMA.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const problems = Object.entries(REPLACED)
    .filter(([key]) => env[key] !== undefined && env[key] !== '')
    .map(([key, why]) => `${key}: ${why}`);
  // The validator's coercion reads a number as JavaScript does, so `0x10` would be 16 and `1e3`
  // 1000: a whole number is taken only in decimal digits, as the docs give every one.
  for (const [key, rule] of Object.entries(ENV_SCHEMA.properties)) {
    const value = raw[key];
    if (rule.type === 'integer' && typeof value === 'string' && !DECIMAL_INTEGER.test(value.trim())) {
      problems.push(`${key}: must be a whole number in decimal digits (got ${JSON.stringify(value)})`);
      delete raw[key];
    }
  }
  // A URL's rule said in words, once, rather than as the schema's pattern and format in turn.
  const ruled = new Set<string>();
  if (!validateEnv(raw)) {
    for (const e of validateEnv.errors ?? []) {
      const key = e.instancePath.replace(/^\//, '') || String(e.params['missingProperty'] ?? '');
      if (SECRET_KEYS.has(key)) {
        problems.push(`${key}: ${e.message} (value not shown)`);
        continue;
      }
      const rule = URL_RULES[key];
      if (rule !== undefined && (e.keyword === 'pattern' || e.keyword === 'format')) {
        if (!ruled.has(key)) problems.push(`${key}: ${rule} (got ${JSON.stringify(displayUrl(env[key] ?? ''))})`);
        ruled.add(key);
        continue;
      }
      const got = URL_KEYS.has(key) && env[key] !== undefined ? displayUrl(env[key]) : env[key];
      problems.push(`${key}: ${e.message} (got ${JSON.stringify(got)})`);
    }
  }
  // `<alias>-changes` is an alias's record of changes: such an alias would take another's for its
  // own (helper-97 ran one as far as its switch, which failed with Elasticsearch's raw reasons).
  const alias = raw['INDEX_ALIAS'];
  if (typeof alias === 'string' && alias.endsWith('-changes')) {
    problems.push(`INDEX_ALIAS: must not end in -changes, the name of an alias's record of changes (got ${JSON.stringify(alias)})`);
  }
  for (const key of ['ELASTICSEARCH_URL', 'REDIS_URL'] as const) {
    const value = raw[key];
    if (typeof value !== 'string' || ruled.has(key)) continue;
    const bad = value.split(',').filter((url) => !URL.canParse(url) || !decodable(url));
    if (bad.length > 0) problems.push(`${key}: not a URL: ${bad.map(displayUrl).join(', ')}`);
    else if (value.startsWith(UNIX_SCHEME)) {
      try {
        parseSocketUrl(value);
      } catch (err) {
        problems.push(`${key}: ${(err as Error).message} (got ${JSON.stringify(displayUrl(value))})`);
      }
    }
  }
  if (typeof raw['PORTAL_DEFAULT_TIER'] === 'string' && typeof raw['RATE_LIMIT_TIERS'] === 'string') {
    const tiers = Object.keys(parseTiers(raw['RATE_LIMIT_TIERS']));
    if (!tiers.includes(raw['PORTAL_DEFAULT_TIER'])) {
      problems.push(
        `PORTAL_DEFAULT_TIER: must be one of the tiers of RATE_LIMIT_TIERS (${tiers.join(', ')}) (got ${JSON.stringify(raw['PORTAL_DEFAULT_TIER'])})`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const v = raw as Record<keyof typeof ENV_SCHEMA.properties, never>;
  return {
    port: v.PORT,
    host: v.HOST,
    elasticsearchUrl: String(v.ELASTICSEARCH_URL)
      .split(',')
      .map((url) => url.replace(/\/+$/, ''))
      .join(','),
    elasticsearchTimeoutMs: v.ELASTICSEARCH_TIMEOUT_MS,
    redisUrl: v.REDIS_URL,
    redisTimeoutMs: v.REDIS_TIMEOUT_MS,
    indexAlias: v.INDEX_ALIAS,
    imageBaseUrl: String(v.IMAGE_BASE_URL).replace(/\/+$/, ''),
    maxResultWindow: v.MAX_RESULT_WINDOW,
    logLevel: v.LOG_LEVEL,
    trustProxyHops: v.TRUST_PROXY_HOPS,
    metricsHost: v.METRICS_HOST,
    metricsPort: v.METRICS_PORT,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    cursorSecret: typeof raw['CURSOR_SECRET'] === 'string' ? raw['CURSOR_SECRET'] : null,
    portal: {
      enabled: v.PORTAL_ENABLED,
      defaultTier: v.PORTAL_DEFAULT_TIER,
      publicOrigins: typeof raw['PUBLIC_ORIGIN'] === 'string' ? raw['PUBLIC_ORIGIN'].toLowerCase().split(',') : [],
      hashConcurrency: v.PASSWORD_HASH_CONCURRENCY,
      hashQueue: v.PASSWORD_HASH_QUEUE,
      hashesPerClient: v.PASSWORD_HASHES_PER_CLIENT,
    },
    http: {
      headersTimeoutMs: v.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: v.REQUEST_TIMEOUT_MS,
      maxConnectionsPerAddress: v.MAX_CONNECTIONS_PER_ADDRESS,
      maxPipelinedPerConnection: v.MAX_PIPELINED_PER_CONNECTION,
    },
    maxInFlightPerAccount: v.MAX_IN_FLIGHT_PER_ACCOUNT,
    maxWaitingPerAccount: v.MAX_WAITING_PER_ACCOUNT,
    rateLimit: {
      tiers: parseTiers(v.RATE_LIMIT_TIERS),
      windowSeconds: v.RATE_LIMIT_WINDOW_SECONDS,
      authFailureLimit: v.AUTH_FAILURE_LIMIT,
      authFailureWindowSeconds: v.AUTH_FAILURE_WINDOW_SECONDS,
      authGraceMs: v.AUTH_GRACE_MS,
    },
    redisBreaker: {
      failureThreshold: v.REDIS_BREAKER_FAILURES,
      openMs: v.REDIS_BREAKER_OPEN_MS,
    },
    responseCache: {
      maxBytes: Number(v.RESPONSE_CACHE_MB) * 1024 * 1024,
      ttlMs: v.RESPONSE_CACHE_TTL_MS,
      checkIntervalMs: v.RESPONSE_CACHE_CHECK_MS,
    },
    elasticsearchBatching: {
      maxInFlight: v.ELASTICSEARCH_BATCH_CONCURRENCY,
      maxBatchSize: v.ELASTICSEARCH_BATCH_SIZE,
      maxQueued: v.ELASTICSEARCH_QUEUE_MAX,
    },
    meaning: {
      modelDir: v.MEANING_MODEL_DIR === 'off' ? null : v.MEANING_MODEL_DIR,
      floor: v.MEANING_FLOOR,
      top: v.MEANING_WORDS,
      refreshMs: v.MEANING_REFRESH_MS,
    },
  };
}

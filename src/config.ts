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
}

const ENV_SCHEMA = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
    HOST: { type: 'string', minLength: 1, default: '0.0.0.0' },
    ELASTICSEARCH_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'http://127.0.0.1:9200' },
    ELASTICSEARCH_TIMEOUT_MS: { type: 'integer', minimum: 50, maximum: 60000, default: 5000 },
    REDIS_URL: { type: 'string', format: 'uri', pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' },
    REDIS_TIMEOUT_MS: { type: 'integer', minimum: 10, maximum: 60000, default: 1000 },
    INDEX_ALIAS: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,100}$', default: 'wallpapers' },
    IMAGE_BASE_URL: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://images.wallpapers.example' },
    MAX_RESULT_WINDOW: { type: 'integer', minimum: 100, maximum: 1000000, default: 10000 },
    LOG_LEVEL: { type: 'string', enum: ['debug', 'info', 'warn', 'error', 'silent'], default: 'info' },
  },
} as const;

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true });
addFormats(ajv);
const validateEnv = ajv.compile(ENV_SCHEMA);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the known keys from an environment, applies defaults, and fails naming every bad key. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ENV_SCHEMA.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  if (!validateEnv(raw)) {
    const problems = (validateEnv.errors ?? []).map((e) => {
      const key = e.instancePath.replace(/^\//, '') || String(e.params['missingProperty'] ?? '');
      return `${key}: ${e.message} (got ${JSON.stringify(env[key])})`;
    });
    throw new ConfigError(problems);
  }
  const v = raw as Record<keyof typeof ENV_SCHEMA.properties, never>;
  return {
    port: v.PORT,
    host: v.HOST,
    elasticsearchUrl: String(v.ELASTICSEARCH_URL).replace(/\/+$/, ''),
    elasticsearchTimeoutMs: v.ELASTICSEARCH_TIMEOUT_MS,
    redisUrl: v.REDIS_URL,
    redisTimeoutMs: v.REDIS_TIMEOUT_MS,
    indexAlias: v.INDEX_ALIAS,
    imageBaseUrl: String(v.IMAGE_BASE_URL).replace(/\/+$/, ''),
    maxResultWindow: v.MAX_RESULT_WINDOW,
    logLevel: v.LOG_LEVEL,
  };
}

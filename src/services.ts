import type { Client } from '@elastic/elasticsearch';
import { createAccess } from './access/domain/access.js';
import { createAccountStore } from './access/store/account-store.js';
import { createAccountQuotaReader } from './access/store/admission-store.js';
import { createKeyStore } from './access/store/key-store.js';
import { unloggedSentence } from './access/store/withdrawal-log.js';
import { createPortalService } from './portal/domain/portal-service.js';
import { createSessionStore } from './portal/store/session-store.js';
import { createThrottleStore } from './portal/store/throttle-store.js';
import { createDeviceStore } from './portal/store/device-store.js';
import { createWorkBudget } from './infra/work-budget.js';
import { createAccountLanes } from './access/domain/account-lanes.js';
import type { AppServices } from './app.js';
import type { Config } from './config.js';
import { instrumentElasticsearch } from './infra/es-metrics.js';
import { type Logger, silentLogger } from './infra/logger.js';
import { type Metrics, createMetrics } from './infra/metrics.js';
import type { RedisClient } from './infra/redis.js';
import { type Readiness, createReadiness } from './ops/store/readiness.js';
import { withResponseCache } from './wallpapers/store/cached-repository.js';
import { createEsRepository } from './wallpapers/store/es-repository.js';
import { loadCatalogueWords, readAsIndexed } from './wallpapers/store/catalogue-words.js';
import { createSearchMeaning, noMeaning } from './wallpapers/domain/search-meaning.js';
import { withShorthandExclusions } from './wallpapers/domain/with-shorthand-exclusions.js';
import { withMeaning } from './wallpapers/domain/with-meaning.js';
import { withSuggestion } from './wallpapers/domain/with-suggestion.js';
import { withJoinedWords } from './wallpapers/domain/with-joined-words.js';
import { withTypos } from './wallpapers/domain/with-typos.js';
import { withWallpapersAsked } from './wallpapers/domain/with-wallpapers-asked.js';
import { withSizesFound } from './wallpapers/domain/with-sizes-found.js';
import { withSplitWords } from './wallpapers/domain/with-split-words.js';
import { createWordOccurrences } from './wallpapers/domain/word-occurrences.js';
import { wordsOccur } from './wallpapers/store/word-occurrence.js';

export interface Clients {
  es: Client;
  redis: RedisClient;
  logger?: Logger;
  metrics?: Metrics;
  /** The server passes its own, to drain it at shutdown. */
  readiness?: Readiness;
}

/**
 * The default services: the wallpaper repository on Elasticsearch behind the response cache
 * (a decorator, applied here), access on Redis, and readiness over both.
 */
export function buildServices(config: Config, { es, redis, logger = silentLogger, metrics = createMetrics(), readiness }: Clients): AppServices {
  instrumentElasticsearch(es, metrics);
  const { modelDir, ...meaningOptions } = config.meaning;
  // One memo of whether words occur, for the typo rule and for things the catalogue holds nowhere.
  const occurrences = createWordOccurrences({
    wordsOccur: (words, timeoutMs) => wordsOccur(es, config.indexAlias, words, timeoutMs),
    absentMs: config.responseCache.checkIntervalMs,
    occursMs: config.meaning.refreshMs,
  });
  const meaning =
    modelDir === null
      ? noMeaning
      : createSearchMeaning({
          modelDir,
          ...meaningOptions,
          loadWords: (timeoutMs) => loadCatalogueWords(es, config.indexAlias, timeoutMs),
          readAsIndexed: (words, timeoutMs) => readAsIndexed(es, config.indexAlias, words, timeoutMs),
          occurrences,
          logger,
        });
  const repository = withResponseCache(
    withShorthandExclusions(
      withSuggestion(
        withWallpapersAsked(
          withSplitWords(
            withJoinedWords(
              withTypos(
                withMeaning(
                  withSizesFound(
                    createEsRepository(es, config.indexAlias, {
                      logger,
                      resultWindow: config.maxResultWindow,
                      batching: {
                        ...config.elasticsearchBatching,
                        timeoutMs: config.elasticsearchTimeoutMs,
                        onBatch: (operation, size) => metrics.elasticsearchBatchSize.observe({ operation }, size),
                      },
                    }),
                  ),
                  meaning,
                ),
                occurrences,
                meaning,
              ),
              occurrences,
              meaning,
            ),
            occurrences,
            meaning,
          ),
          occurrences,
        ),
        occurrences,
        meaning,
      ),
      meaning,
    ),
    { es, alias: config.indexAlias, logger, ...config.responseCache, onLookup: (result) => metrics.cacheLookups.inc({ result }) },
  );
  // A portal user's revoke or rotate whose withdrawal the log lost: the operator reads it here.
  const keys = createKeyStore(redis, {
    onUnlogged: (unlogged) =>
      logger.warn(unloggedSentence(unlogged), { account_id: unlogged.accountId, key_id: unlogged.keyId, reason: unlogged.reason }),
  });
  const portal = {
    service: createPortalService({
      accounts: createAccountStore(redis),
      sessions: createSessionStore(redis),
      throttle: createThrottleStore(redis),
      devices: createDeviceStore(redis),
      hashing: createWorkBudget({
        concurrency: config.portal.hashConcurrency,
        queue: config.portal.hashQueue,
        perOwner: config.portal.hashesPerClient,
      }),
      defaultTier: config.portal.defaultTier,
    }),
    publicOrigins: config.portal.publicOrigins,
    keys,
    quota: createAccountQuotaReader(redis, { windowMs: config.rateLimit.windowSeconds * 1000, tiers: config.rateLimit.tiers }),
    windowSeconds: config.rateLimit.windowSeconds,
  };
  return {
    repository,
    warm: meaning.ready,
    ...(config.maxInFlightPerAccount > 0
      ? { lanes: createAccountLanes(config.maxInFlightPerAccount, config.maxWaitingPerAccount, config.elasticsearchTimeoutMs) }
      : {}),
    ...(config.portal.enabled ? { portal } : {}),
    access: createAccess({ redis, rateLimit: config.rateLimit, redisBreaker: config.redisBreaker, logger, metrics }),
    readiness: readiness ?? createReadiness({ es, redis, alias: config.indexAlias }),
    logger,
    metrics,
  };
}

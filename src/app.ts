import Koa from 'koa';
import { randomBytes } from 'node:crypto';
import type { Access } from './access/domain/access.js';
import type { Config } from './config.js';
import { accessGuard } from './access/edge/access-guard.js';
import type { AccountLanes } from './access/domain/account-lanes.js';
import { fairShare } from './access/edge/fair-share.js';
import { accessLog } from './http/access-log.js';
import { usageRoutes } from './access/edge/usage-routes.js';
import { compression } from './http/compression.js';
import { conditionalGet } from './http/conditional-get.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { routeFallbacks } from './http/route-fallbacks.js';
import { withRequestId } from './http/request-id.js';
import { createRouter, routePattern } from './http/router.js';
import { securityHeaders } from './http/security-headers.js';
import { type Logger, silentLogger } from './infra/logger.js';
import { type Metrics, createMetrics } from './infra/metrics.js';
import type { Readiness } from './ops/store/readiness.js';
import { type PortalServices, portalRoutes } from './portal/edge/routes.js';
import { opsRoutes } from './ops/edge/routes.js';
import type { WallpaperRepository } from './wallpapers/store/repository.js';
import { createCursorCodec } from './wallpapers/edge/cursor.js';
import { wallpaperRoutes } from './wallpapers/edge/routes.js';

/** What the HTTP edge serves from: built from real clients by buildServices, or in memory by tests. */
export interface AppServices {
  repository: WallpaperRepository;
  access: Access;
  readiness: Readiness;
  logger?: Logger;
  metrics?: Metrics;
  /** The developer portal under /portal; without it, no portal is served. */
  portal?: PortalServices;
  /**
   * Settles when what first requests would otherwise wait for is loaded (search meaning: 0.7 s);
   * the server listens after it, so a restarted process takes traffic warm.
   */
  warm?: Promise<void>;
  /** How many requests of one account are worked on at once (MAX_IN_FLIGHT_PER_ACCOUNT); without it, no limit. */
  lanes?: AccountLanes;
}

export type AppSettings = Pick<Config, 'maxResultWindow' | 'trustProxyHops'> & Partial<Pick<Config, 'cursorSecret' | 'indexAlias'>>;

const API_PREFIX = '/v1';

/** Composes the HTTP edge around the services it is given; opens no sockets, reads no environment, creates no client. */
export function createApp(services: AppServices, settings: AppSettings): Koa {
  const { repository, access, readiness, logger = silentLogger, metrics = createMetrics() } = services;
  const app = new Koa();
  app.silent = true;

  // The key check and the quota belong to the /v1 router itself: they run for every request that
  // reaches one of its routes, whatever else the path looked like on the way in.
  const v1 = createRouter({ prefix: API_PREFIX });
  v1.use(accessGuard({ access, metrics, trustProxyHops: settings.trustProxyHops, ...(services.lanes ? { lanes: services.lanes } : {}) }));
  if (services.lanes) v1.use(fairShare({ lanes: services.lanes, metrics }));
  // Reading one's usage is free of quota: its route is on a router of its own, with its own guard.
  const usage = usageRoutes({ access, metrics, trustProxyHops: settings.trustProxyHops, prefix: API_PREFIX });
  // Without a configured secret, cursors are sealed with one of this app's own: they then work only
  // against this process (start-up warns).
  const cursors = createCursorCodec(settings.cursorSecret ?? randomBytes(32).toString('base64url'), {
    onLegacyRead: () => metrics.legacyCursorReads.inc(),
    catalogue: settings.indexAlias,
  });
  v1.use(wallpaperRoutes({ repository, maxResultWindow: settings.maxResultWindow, cursors }).routes());

  app.use(securityHeaders);
  app.use(withRequestId);
  app.use(accessLog(logger, metrics));
  // The portal answers its own paths before the API's CORS policy, compression and JSON errors:
  // its pages are not for other sites, and its errors are pages (docs/portal.md).
  if (services.portal) app.use(portalRoutes({ ...services.portal, trustProxyHops: settings.trustProxyHops, logger }));
  const ops = opsRoutes({ readiness });
  const routers = [ops, v1, usage];
  app.use(corsPolicy({ routeOf: (path) => routePattern(routers, path) }));
  app.use(compression());
  app.use(errorHandler(logger));
  app.use(conditionalGet);
  app.use(routeFallbacks);
  app.use(ops.routes());
  // The catalogue's router comes first: its routes answer without calling on, so the hot path
  // never walks the usage router. /v1/usage matches no route of it and passes through untouched.
  app.use(v1.routes());
  app.use(v1.allowedMethods());
  app.use(usage.routes());
  app.use(usage.allowedMethods());
  return app;
}

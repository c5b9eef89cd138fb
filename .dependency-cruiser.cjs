// The layers of src/ and the one direction imports may take between them. `npm run lint`
// fails on any import that points up, and on any cycle.
//
//   composition   server.ts, start-server.ts, services.ts: read the environment, open sockets,
//                 build the services from real clients
//   edge          app.ts, http/, */routes.ts, ops/ pages and listeners: HTTP in and out, and the
//                 one place where domain errors become statuses
//   domain        access/ (authentication + quota): admission, its fallback, the quota;
//                 portal/portal-service (accounts, sign-in, sessions of the developer portal)
//   data access   the wallpaper repository on Elasticsearch and its cache decorator, the key
//                 store, the admission script, readiness probes: what reads and writes the stores
//   infra         infra/: clients, logger, metrics, request context, batching, circuit breaker,
//                 LRU, shared results; knows nothing of the domain
//   kernel        config, domain errors, the OpenAPI contract and the types it defines
//                 (wallpaper, parameters, categories, resolution, search syntax): importable from every layer
//   tools         catalogue/: the operators' CLIs (cli -> ingest -> admin; generation alone)
//
// A layer may import any layer below it, skipping some, never one above.
const layer = {
  composition: '^src/(server|start-server|services)\\.ts$',
  edge: '^src/(app\\.ts|http/|wallpapers/(routes|cursor|prepared-queries)\\.ts|ops/(routes|metrics-app|docs-page)\\.ts|portal/(routes|views|html|form|usage-chart|assets)\\.ts)',
  domain: '^src/(access/(access|admission|fallback-limiter|quota)|portal/(portal-service|password-policy))\\.ts$',
  data: '^src/(wallpapers/(repository|es-repository|cached-repository|build-queries|catalogue-version)|access/(admission-store|authenticate-lua|sliding-window-lua|key-store|account-store|redis-keys|api-key|auth-failures)|portal/(session-store|throttle-store|device-store)|ops/readiness)\\.ts$',
  infra: '^src/infra/',
  kernel: '^src/(config|errors|wallpapers/(wallpaper|params|categories|resolution|aspect-ratio|search-query|index-document)|openapi/[^/]+)\\.ts$',
  tools: '^src/catalogue/',
};

const above = {
  kernel: ['composition', 'edge', 'domain', 'data', 'infra', 'tools'],
  infra: ['composition', 'edge', 'domain', 'data', 'tools'],
  data: ['composition', 'edge', 'domain', 'tools'],
  domain: ['composition', 'edge', 'tools'],
  edge: ['composition', 'tools'],
  tools: ['composition', 'edge'],
};

const upward = Object.entries(above).map(([from, targets]) => ({
  name: `no-${from}-to-higher-layer`,
  comment: `${from} must not import ${targets.join(', ')}: layers point one way (see the top of this file)`,
  severity: 'error',
  from: { path: layer[from] },
  to: { path: targets.map((t) => layer[t]) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle means two modules are one idea split in two, or one layer reaching back up.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'every-module-has-a-layer',
      comment: 'A new file under src/ must be placed in one of the layers above.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: Object.values(layer),
      },
      to: {},
    },
    ...upward,
    {
      name: 'catalogue-tools-one-way',
      comment: 'Inside catalogue/: cli -> ingest -> admin, and generation imports none of them.',
      severity: 'error',
      from: { path: '^src/catalogue/(admin|generation)/' },
      to: { path: '^src/catalogue/(cli|ingest)/' },
    },
    {
      name: 'catalogue-ingest-not-cli',
      severity: 'error',
      from: { path: '^src/catalogue/ingest/' },
      to: { path: '^src/catalogue/cli/' },
    },
    {
      name: 'catalogue-generation-alone',
      severity: 'error',
      from: { path: '^src/catalogue/generation/' },
      to: { path: '^src/catalogue/admin/' },
    },
    {
      name: 'src-not-tests-or-tools',
      comment: 'The service never depends on tests, benchmarks or scripts.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

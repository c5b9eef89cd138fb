// The layers of src/ and the one direction imports may take between them. `npm run lint`
// fails on any import that points up, and on any cycle. A file's layer is the folder it stands
// in, so a new file has one without an edit here:
//
//   composition   server.ts, start-server.ts, services.ts: read the environment, open sockets,
//                 build the services from real clients
//   edge          app.ts, http/ (middleware every feature uses), <feature>/edge/: HTTP in and out,
//                 and the one place where domain errors become statuses
//   domain        <feature>/domain/: decisions (admission and its fallback, the portal's accounts
//                 and sign-in), written against ports, not clients
//   data          <feature>/store/: what reads and writes Elasticsearch and Redis
//   infra         infra/: clients, logger, metrics, batching, circuit breaker, LRU, shared
//                 results; knows nothing of the domain
//   kernel        config, domain errors, the OpenAPI contract, and each feature's own types at
//                 the feature's root (wallpaper, parameters, search syntax, quota, key format):
//                 importable from every layer
//   tools         catalogue/: the operators' CLIs (cli -> ingest -> admin; generation alone)
//
// A layer may import any layer below it, skipping some, never one above.
const FEATURE = '(?!http/|infra/|catalogue/|openapi/)[^/]+';
const layer = {
  composition: '^src/(server|start-server|services)\\.ts$',
  edge: `^src/(app\\.ts$|http/|${FEATURE}/edge/)`,
  domain: `^src/${FEATURE}/domain/`,
  data: `^src/${FEATURE}/store/`,
  infra: '^src/infra/',
  kernel: `^src/((config|errors)\\.ts$|openapi/[^/]+\\.ts$|${FEATURE}/[^/]+\\.ts$)`,
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
      comment: 'A cycle means two modules are one idea split in two, or one layer reaching back up (in src/, bench/, scripts/ and test/).',
      severity: 'error',
      from: { path: '^(src|bench|scripts|test)/' },
      to: { circular: true },
    },
    {
      name: 'one-layer-folder-deep',
      comment: 'A feature has its layers as folders (edge/, domain/, store/) and its own types at its root, nothing deeper or elsewhere.',
      severity: 'error',
      from: { path: `^src/${FEATURE}/(?!(edge|domain|store)/)[^/]+/` },
      to: {},
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
      name: 'catalogue-pixels-alone',
      comment: "Reading pictures needs none of the operators' tools: cli and ingest use it, it uses none of them.",
      severity: 'error',
      from: { path: '^src/catalogue/pixels/' },
      to: { path: '^src/catalogue/(cli|ingest|admin|generation)/' },
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

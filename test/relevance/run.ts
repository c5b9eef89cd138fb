// npm run relevance [-- --markdown] [--mapping <index definition file>] [--judgments <file>]
// Loads the demo catalogue into its own alias, searches it through the real app for every judged
// query, and prints precision@k and nDCG@10 per query and overall.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { createEsClient } from '../../src/infra/elasticsearch.js';
import { createRedis } from '../../src/infra/redis.js';
import { dropIndicesOf } from '../support/harness.js';
import { demoSearch } from './demo-search.js';
import { evaluate, markdownReport, readJudgments } from './evaluate.js';

const { values } = parseArgs({
  options: {
    markdown: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    mapping: { type: 'string' },
    judgments: { type: 'string' },
  },
});
const config = { ...loadConfig(), logLevel: 'silent' as const };
const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 60_000 });
const redis = createRedis({ url: config.redisUrl, commandTimeoutMs: 5000 });
const alias = 'relevance-demo';
// judgments.json by default; judgments-people.json holds queries as people type them.
const judgments = values.judgments ? readJudgments(new URL(values.judgments, `file://${process.cwd()}/`)) : readJudgments();
const mapping = values.mapping ? (JSON.parse(readFileSync(values.mapping, 'utf8')) as object) : undefined;
const demo = await demoSearch(es, redis, config, alias, mapping);
try {
  const report = await evaluate(judgments, demo.catalogue, (q) => demo.search(q));
  if (values.markdown) {
    process.stdout.write(`${markdownReport(report, judgments.k)}\n`);
  } else {
    for (const s of report.queries) {
      process.stdout.write(
        `${s.kind.padEnd(11)} ${s.q.padEnd(32)} relevant ${String(s.relevant).padStart(4)}  returned ${String(s.total).padStart(5)}  p@${s.k} ${s.precision.toFixed(2)}  nDCG@10 ${s.ndcg.toFixed(2)}${s.missed ? '  MISSED' : ''}\n`,
      );
    }
    process.stdout.write(
      `\nmean precision@k ${report.meanPrecision.toFixed(3)}, mean nDCG@10 ${report.meanNdcg.toFixed(3)}, missed: ${report.missed.join(', ') || 'none'}\n`,
    );
  }
} finally {
  await demo.close();
  if (!values.keep) await dropIndicesOf(es, alias);
  await es.close();
  redis.disconnect();
}

// Rewrites a run's markdown and chart from its JSON (after a change to the report itself):
//   npx tsx bench/api/rewrite-report.ts bench/results/api-bench-1m.json
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BenchResults } from './bench-results.js';
import { writeReports } from './report.js';

const file = process.argv[2];
if (!file) throw new Error('usage: rewrite-report.ts <results json>');
const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
writeReports(dirname(file), results);

import { expect } from 'chai';
import type { BenchResults } from '../../../bench/api/bench-results.js';
import type { FixedRateResult } from '../../../bench/api/fixed-rate.js';
import { fixedRateTable } from '../../../bench/api/report-tables.js';

const run = (target: string, extra: Partial<FixedRateResult> = {}) => ({
  scenario: 'get-random' as const,
  target,
  rate: 2200,
  sent: 22000,
  completed: 22000,
  errors: 0,
  non2xx: 0,
  p50Ms: 2.3,
  p90Ms: 6.9,
  p99Ms: 51.2,
  maxMs: 90,
  lateP99Ms: 6.04,
  lateMaxMs: 17.7,
  loopMaxMs: 18,
  ...extra,
});

function results(fixedRate: BenchResults['fixedRate']): BenchResults {
  return { scenarios: [{ scenario: 'get-random' }], fixedRate } as unknown as BenchResults;
}

describe('bench/api/report-tables fixedRateTable', () => {
  it('when the generator timed itself, then its lateness in the API run is shown beside the latencies', () => {
    const [, , line] = fixedRateTable(results([run('es'), run('api')]));
    expect(line).to.match(/\| 2\.3 \/ 6\.9 \/ 51\.2 \|.*\| 6\.0 \/ 17\.7 \|$/);
  });

  it('when a result was saved before the generator timed itself, then the column says so instead of NaN', () => {
    const old = run('api');
    delete (old as Partial<typeof old>).lateP99Ms;
    delete (old as Partial<typeof old>).lateMaxMs;
    const [, , line] = fixedRateTable(results([old]));
    expect(line).to.match(/\| – \|$/);
    expect(line).not.to.include('NaN');
  });
});

import type { TestResponse } from './harness.js';

/** How many of each status, and each distinct refusal, for an assertion's message. */
export function tally(responses: TestResponse[]): string {
  const counts = new Map<string, number>();
  for (const r of responses) {
    const what = r.status === 200 ? '200' : `${r.status} ${String(r.body?.message).slice(0, 60)}`;
    counts.set(what, (counts.get(what) ?? 0) + 1);
  }
  return [...counts].map(([what, n]) => `${n} × ${what}`).join('; ');
}

import type { Compaction } from '../admin/index-admin.js';

/** One line on merging a new index after it went live. */
export function describeCompaction(index: string, compaction: Compaction): string {
  return 'seconds' in compaction
    ? `merged ${index} to one segment in ${compaction.seconds.toFixed(1)}s, after it went live`
    : `could not merge ${index} to one segment (${compaction.error}); it is live and complete, and Elasticsearch goes on merging it`;
}

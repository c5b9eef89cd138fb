import type { ExtractCounts } from '../pixels/extract-colors.js';

/** One line on what reading palettes from pictures did, with its rate. */
export function describeExtraction({ extracted, failed, kept, seconds }: ExtractCounts): string {
  const read = extracted + failed;
  const rate = seconds > 0 ? Math.round(read / seconds) : 0;
  const parts = [`palettes read from ${extracted} pictures (${rate} images/s over ${seconds.toFixed(1)}s)`];
  if (failed > 0) parts.push(`${failed} pictures could not be read (listed above; those wallpapers have no palette)`);
  if (kept > 0) parts.push(`${kept} records kept the palette they came with`);
  return parts.join(', ');
}

/**
 * Wallpaper ids gathered while a load runs (what it wrote, what it read of the catalogue it
 * replaces): kept unboxed, 8 bytes an id, growing by doubling, so a load of millions holds them
 * in a few megabytes and no array of numbers for the collector to walk.
 */
export class IdList {
  private ids = new Float64Array(1024);
  private count = 0;

  add(id: number): void {
    if (this.count === this.ids.length) {
      const grown = new Float64Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  /** The ids sorted, each once (a copy). */
  sortedUnique(): Float64Array {
    return uniqueSorted(this.ids.subarray(0, this.count));
  }
}

/** The values sorted, each once (a copy). */
export function uniqueSorted(values: Float64Array): Float64Array {
  const sorted = Float64Array.from(values).sort();
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i]!;
  return sorted.subarray(0, kept);
}

// splitmix32 finaliser: spreads nearby inputs (seed, id) over the whole 32-bit space.
function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * sfc32 seeded from (seed, stream). Each wallpaper gets its own stream keyed by its id,
 * so a document depends only on (seed, id), not on how many came before it.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    this.a = mix32(seed);
    this.b = mix32(this.a ^ stream);
    this.c = mix32(this.b ^ 0x6a09e667);
    this.d = mix32(this.c ^ stream ^ 0xbb67ae85);
    for (let i = 0; i < 8; i++) this.next();
  }

  /** Uniform float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random.next() * items.length)] as T;
}

/** Weighted choice over precomputed cumulative weights. */
export interface WeightedTable<T> {
  items: readonly T[];
  cumulative: readonly number[];
  total: number;
}

export function weightedTable<T>(entries: readonly (readonly [T, number])[]): WeightedTable<T> {
  const items: T[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [item, weight] of entries) {
    if (!(weight > 0)) throw new RangeError(`weight must be positive, got ${weight}`);
    total += weight;
    items.push(item);
    cumulative.push(total);
  }
  return { items, cumulative, total };
}

export function pickWeighted<T>(random: Random, table: WeightedTable<T>): T {
  const target = random.next() * table.total;
  const { cumulative } = table;
  let i = 0;
  while (i < cumulative.length - 1 && (cumulative[i] as number) <= target) i++;
  return table.items[i] as T;
}

/** Standard normal variate (Box-Muller); 1 - u keeps log() away from zero. */
export function normal(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
}

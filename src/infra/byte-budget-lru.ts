interface Entry<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

/**
 * Least-recently-used map bounded by an estimate of the bytes its values hold, with a
 * time to live per entry. A Map keeps insertion order, so re-inserting on a hit makes
 * the first key the least recently used one.
 */
export class ByteBudgetLru<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private used = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly ttlMs: number,
  ) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) {
      this.used -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Values over an eighth of the budget are not kept: one of them would flush most of the rest. */
  set(key: string, value: V, bytes: number, now: number): void {
    this.delete(key);
    if (bytes > this.maxBytes / 8) return;
    this.entries.set(key, { value, bytes, expiresAt: now + this.ttlMs });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}

/**
 * What was seen lately, by a key of the query it was seen for: a hint for how the next page of that
 * query is read, never an answer served. The least recently used goes first past `max`.
 */
export class RecentValues<V> {
  private readonly values = new Map<string, V>();
  constructor(private readonly max = 2_000) {}
  /** The value, which counts as used: the least recently used goes first. */
  get(key: string): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.max) this.values.delete(this.values.keys().next().value!);
  }
}

/**
 * What was seen lately, by a key of the query it was seen for: a hint for how the next page of that
 * query is read, never an answer served. The least recently set goes first past `max`.
 */
export class RecentValues<V> {
  private readonly values = new Map<string, V>();
  constructor(private readonly max = 2_000) {}
  get(key: string): V | undefined {
    return this.values.get(key);
  }
  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.max) this.values.delete(this.values.keys().next().value!);
  }
}

/**
 * A result shared between requests (coalesced reads, response-cache hits): frozen, so a handler
 * that tried to change it would fail loudly instead of corrupting the next answer, and
 * registered, so what is derived from it once (an envelope, its JSON and ETag) can be kept
 * with it. Object.isFrozen alone would not say that: anything may be frozen.
 */
export type Shared<T> = Readonly<T> & { readonly __shared: unique symbol };

const registry = new WeakSet<object>();

function freezeDeep(value: object): void {
  // Indexed and for-in loops: Object.values would allocate an array for every object of a page.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeChild(value[i]);
  } else {
    for (const key in value) freezeChild((value as Record<string, unknown>)[key]);
  }
  Object.freeze(value);
}

function freezeChild(child: unknown): void {
  if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) freezeDeep(child);
}

/**
 * Freezes `value` and what it holds (arrays and plain objects), and marks `value` shared. Only the
 * value itself is registered, not its parts: a weak-set entry costs about a microsecond to add and
 * more to collect, and a page holds a few dozen objects (measured: sharing a page of 20 took
 * 38 µs with every part registered, 6 µs with the page alone).
 */
export function share<T extends object>(value: T): Shared<T> {
  if (registry.has(value)) return value as Shared<T>;
  freezeDeep(value);
  registry.add(value);
  return value as Shared<T>;
}

export function isShared(value: unknown): value is Shared<object> {
  return value !== null && typeof value === 'object' && registry.has(value);
}

/**
 * One kind of value derived from shared results (an envelope, its JSON and ETag, a cache key),
 * computed from each result once and kept exactly as long as the result is: many requests are
 * handed the same shared result, so the derivation runs once for all of them. For a result that
 * is not shared it is computed every time, and not kept. One weak map per kind, made here, so a
 * lookup is one weak-map read (a map of kinds per result cost about 1.5 µs more per new result).
 */
export function derivedOnce<V>(): (result: object, build: () => V) => V {
  const kept = new WeakMap<object, V>();
  return (result, build) => {
    if (!registry.has(result)) return build();
    let value = kept.get(result);
    if (value === undefined) kept.set(result, (value = build()));
    return value;
  };
}

/**
 * A shared result with one field set to a value: made once per result and value, so requests
 * handed the same result get the same variant (and with it one envelope and one JSON). The result
 * itself when its field holds the value already.
 */
export function variantsBy<T extends object, K extends keyof T>(field: K): (result: Shared<T>, value: T[K]) => Shared<T> {
  const variants = derivedOnce<Map<T[K], Shared<T>>>();
  return (result, value) => {
    if (result[field] === value) return result;
    const byValue = variants(result, () => new Map());
    let variant = byValue.get(value);
    if (variant === undefined) byValue.set(value, (variant = share({ ...result, [field]: value })));
    return variant;
  };
}

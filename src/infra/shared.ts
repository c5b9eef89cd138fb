/**
 * A result shared between requests (coalesced reads, response-cache hits): frozen, so a handler
 * that tried to change it would fail loudly instead of corrupting the next answer, and
 * registered, so what is derived from it once (an envelope, its JSON and ETag) can be kept
 * with it. Object.isFrozen alone would not say that: anything may be frozen.
 */
export type Shared<T> = Readonly<T> & { readonly __shared: unique symbol };

const registry = new WeakSet<object>();

/** Freezes `value` and what it holds (arrays and plain objects), and marks it shared. */
export function share<T extends object>(value: T): Shared<T> {
  if (registry.has(value)) return value as Shared<T>;
  for (const child of Object.values(value)) {
    if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) share(child as object);
  }
  registry.add(Object.freeze(value));
  return value as Shared<T>;
}

export function isShared(value: unknown): value is Shared<object> {
  return value !== null && typeof value === 'object' && registry.has(value);
}

import { shuffleKey, shuffleOf } from '../../src/wallpapers/store/shuffle.js';

// A model of sort=random along a key (shuffle.ts), written from its description, to check walks against.

/**
 * The order a seed names over these wallpapers: its key from the offset up, then from the bottom,
 * begun the seed's skip of them in (round them again past the last).
 */
export function cycle(docs: readonly { id: number }[], seed: string): number[] {
  const { key, offset, skip } = shuffleOf(seed);
  const sorted = docs.map((doc) => doc.id).sort((a, b) => shuffleKey(a, key) - shuffleKey(b, key) || a - b);
  const round = [...sorted.filter((id) => shuffleKey(id, key) >= offset), ...sorted.filter((id) => shuffleKey(id, key) < offset)];
  const at = round.length === 0 ? 0 : skip % round.length;
  return [...round.slice(at), ...round.slice(0, at)];
}

/** How many of a seed's cycle come before it crosses the top of its key. */
export function firstLap(docs: readonly { id: number }[], seed: string): number {
  const { key } = shuffleOf(seed);
  const order = cycle(docs, seed);
  const wrap = order.findIndex((id, i) => i > 0 && shuffleKey(id, key) < shuffleKey(order[i - 1]!, key));
  return wrap === -1 ? order.length : wrap;
}

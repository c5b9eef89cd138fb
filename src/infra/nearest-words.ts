import type { SentenceModel } from './sentence-model.js';

/** Words (or short phrases), each with its vector from a sentence model, to find those nearest a vector. */
export interface Vocabulary {
  readonly entries: readonly string[];
  has(entry: string): boolean;
  /** An entry's vector, as embedded when the words were built; undefined for any other text. */
  vectorOf(entry: string): Float32Array | undefined;
  /** Entries whose cosine similarity to `vector` is at least `floor`, most similar first, `top` at most. */
  nearest(vector: Float32Array, floor: number, top: number): { entry: string; similarity: number }[];
}

/** The cosine similarity of two unit vectors (the model's are): their dot product. */
export function cosine(a: Float32Array, b: Float32Array, offsetB = 0): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[offsetB + d]!;
  return sum;
}

// Words' vectors remembered per model, at most this many: the words of recent queries.
const REMEMBERED_VECTORS = 10_000;
const remembered = new WeakMap<SentenceModel, (word: string) => Promise<Float32Array>>();

/**
 * A word's vector, embedded once and remembered among the last 10,000 or so asked: one memo per
 * model, shared by whatever asks (what a query means, and whether a real word was mistyped).
 */
export function memoisedVectors(model: SentenceModel): (word: string) => Promise<Float32Array> {
  let vectorOf = remembered.get(model);
  if (vectorOf === undefined) {
    const vectors = new Map<string, Float32Array>();
    vectorOf = async (word) => {
      let vector = vectors.get(word);
      if (vector === undefined) {
        [vector] = (await model.embed([word])) as [Float32Array];
        if (vectors.size >= REMEMBERED_VECTORS) vectors.clear();
        vectors.set(word, vector);
      }
      return vector;
    };
    remembered.set(model, vectorOf);
  }
  return vectorOf;
}

/**
 * Embeds the entries not embedded before (`known` keeps every vector across rebuilds, so a
 * catalogue that gains a few tags costs a few embeddings) and lays the vectors out in one array.
 */
export async function buildVocabulary(model: SentenceModel, entries: readonly string[], known: Map<string, Float32Array>): Promise<Vocabulary> {
  const unique = [...new Set(entries)];
  const missing = unique.filter((entry) => !known.has(entry));
  (await model.embed(missing)).forEach((vector, i) => known.set(missing[i]!, vector));
  const dimensions = unique.length > 0 ? known.get(unique[0]!)!.length : 0;
  const vectors = new Float32Array(unique.length * dimensions);
  unique.forEach((entry, i) => vectors.set(known.get(entry)!, i * dimensions));
  const members = new Map(unique.map((entry, i) => [entry, i]));
  return {
    entries: unique,
    has: (entry) => members.has(entry),
    vectorOf(entry) {
      const i = members.get(entry);
      return i === undefined ? undefined : vectors.subarray(i * dimensions, (i + 1) * dimensions);
    },
    nearest(vector, floor, top) {
      const found: { entry: string; similarity: number }[] = [];
      for (let i = 0; i < unique.length; i++) {
        const similarity = cosine(vector, vectors, i * dimensions);
        if (similarity >= floor) found.push({ entry: unique[i]!, similarity });
      }
      return found.sort((a, b) => b.similarity - a.similarity).slice(0, top);
    },
  };
}

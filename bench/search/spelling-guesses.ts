// The spelling guesses' cost per misspelt word, in process: 3,000 one-letter typos of everyday
// words against the sentence model's whole words, five rounds.
//   npx tsx bench/search/spelling-guesses.ts
import { fileURLToPath } from 'node:url';
import { createSpelling } from '../../src/infra/spelling.js';
import { loadSentenceModel } from '../../src/infra/sentence-model.js';

const model = await loadSentenceModel(fileURLToPath(new URL('../../models/minilm', import.meta.url)));
const vocab = model.words;
const spell = createSpelling(vocab);
let s = 7;
const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
const words = ['umbrella', 'telephone', 'bicycle', 'hammer', 'scissors', 'kettle', 'lantern', 'pillow', 'blanket', 'window', 'mountain', 'sunset'];
const typos = Array.from({ length: 3000 }, () => {
  const w = words[Math.floor(rnd() * words.length)]!;
  const i = Math.floor(rnd() * w.length);
  return w.slice(0, i) + String.fromCharCode(97 + Math.floor(rnd() * 26)) + w.slice(i + 1);
});
let out = 0;
for (let round = 0; round < 5; round++) {
  const t = performance.now();
  for (const typo of typos) out += spell(typo).length;
  console.log(`${(((performance.now() - t) * 1000) / typos.length).toFixed(1)} µs/word`);
}
console.log(vocab.length, 'words; found', out);

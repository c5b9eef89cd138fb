// Searches with a phrase people type for a catalogue word (its words in a title's head and the
// title counted as typed since that change) and with plurals typed side by side (read singular
// each), against plain searches, on two builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/everyday-phrases.ts [rounds]
import { readFileSync } from 'node:fs';
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const thesaurus = JSON.parse(readFileSync(new URL('../../thesaurus/everyday-words.json', import.meta.url), 'utf8')) as Record<string, unknown>;
// Every fifteenth phrase the thesaurus lists, two or three words of letters.
const phrases = Object.entries(thesaurus)
  .flatMap(([word, listed]) => (Array.isArray(listed) ? [word, ...(listed as string[])] : []))
  .filter((phrase) => /^[a-z]+( [a-z]+){1,2}$/.test(phrase))
  .filter((_, i) => i % 15 === 0);
await compareBuilds({
  'a phrase people type for a catalogue word': phrases,
  'plurals typed side by side': [
    'mountains lake',
    'roses garden',
    'sunflowers field',
    'tulips fields',
    'mountains lakes',
    'cars racing',
    'stars night',
  ],
  'plain searches': PLAIN_SEARCHES,
});

// Searches for a word that catalogue compounds naming another thing hold ("snow": snow leopard;
// since that change matched only where the word stands outside them, through intervals), beside
// other words, the compounds asked for themselves, and plain searches with no such word, on two
// builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3005 NOW_URL=http://127.0.0.1:3000 API_KEY=… npx tsx bench/search/compounds-apart.ts [rounds]
import { compareBuilds } from './side-by-side.js';

await compareBuilds({
  'a word compounds hold, alone': ['snow', 'red', 'green', 'black', 'rose', 'sports'],
  'beside other words': ['snow forest', 'red sunset', 'white snow', 'snow at night', 'black cat', 'green forest'],
  'the compound asked': ['snow leopard', 'red panda', 'black hole', 'rose window'],
  'no such word': ['mountain sunset', 'neon city', 'calm ocean', 'dark forest', 'lighthouse', 'autumn leaves', 'city at night', 'beach'],
});

// Searches for a word typed as one ("snowleopard": its two words since that change, one question
// more to Elasticsearch, whether the word occurs, remembered), for long words of the language (looked
// at, never split), for unknown words left whole, and plain searches, on two builds side by side
// (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3005 NOW_URL=http://127.0.0.1:3000 API_KEY=… npx tsx bench/search/split-words.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

await compareBuilds({
  'a word typed as one': ['snowleopard', 'nightsky', 'darkforest', 'rosegarden', 'mountainlake', 'redcar', 'neoncity', 'sunsetbeach'],
  'a long word of the language': ['sunflower', 'lighthouse', 'waterfall', 'mountains', 'skyscraper', 'landscape'],
  'an unknown word left whole': ['pokemon', 'lamborghini', 'daybrake', 'skyscrappers'],
  'plain searches': PLAIN_SEARCHES,
});

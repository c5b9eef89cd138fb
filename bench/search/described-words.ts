// Searches whose words stand for others (the meaning tier: "cat" kittens, "woods" forests), where a
// word as typed found only in a description now counts less than in a title (store/build-queries.ts,
// DESCRIBED), against searches without a meaning, on two builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/described-words.ts [rounds]
import { compareBuilds } from './side-by-side.js';

const meaning = ['cat', 'cats', 'running', 'trails', 'skyscraper', 'woods', 'kitty', 'automobile', 'cosmos', 'doggo'];
const plain = ['lighthouse', 'forest', 'sunset', 'castle', 'nebula', 'beach', 'glacier', 'robot', 'waterfall', 'tulips'];
const settings = ['at dawn', 'at night', 'in the rain', 'in winter'];
await compareBuilds({
  'words with a meaning, alone and with a setting': [...meaning, ...meaning.flatMap((word) => settings.map((setting) => `${word} ${setting}`))],
  'plain words, alone and with a setting (control)': [...plain, ...plain.flatMap((word) => settings.map((setting) => `${word} ${setting}`))],
});

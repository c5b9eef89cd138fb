// Searches of several plain words, a plural first (each run of them is also looked up with every
// word singular, domain/query-meaning.ts), and searches naming a Surface or a Kindle (read as a
// tablet, query-filler.ts), on two builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/plural-and-device-words.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const plurals = ['mountains', 'cats', 'cars', 'trees', 'boats', 'flowers', 'castles', 'waves', 'stars', 'birds'];
const things = ['lake', 'sunset', 'forest', 'city', 'beach', 'snow'];
const subjects = ['forest', 'sunset', 'mountain', 'city', 'ocean', 'kitten', 'space', 'flowers'];
await compareBuilds({
  'a plural and a thing': plurals.flatMap((plural) => things.map((thing) => `${plural} ${thing}`)),
  'three words, plurals first': plurals.map((plural, i) => `${plural} ${plurals[(i + 3) % plurals.length]} ${things[i % things.length]}`),
  'a Surface or a Kindle and a thing': ['surface pro 9', 'kindle fire hd 10', 'kindle paperwhite', 'surface go 3'].flatMap((device) =>
    subjects.map((subject) => `${subject} ${device}`),
  ),
  'plain searches': PLAIN_SEARCHES,
});

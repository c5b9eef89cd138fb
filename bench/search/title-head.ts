// Searches whose words stand in titles' heads and settings (each plain word of a group matched as
// typed also asks for the title's head, `title.head`), on two builds side by side
// (side-by-side.ts), with queries of many words and alternatives as the costliest input.
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/title-head.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const plurals = ['mountains', 'cats', 'cars', 'lighthouses', 'forests', 'waterfalls', 'castles', 'boats', 'flowers', 'trees', 'wolves', 'bridges'];
const settings = ['sunset', 'rain', 'snow', 'dawn', 'dusk', 'night', 'fog', 'winter', 'tokyo', 'iceland', 'clouds', 'stars'];
const subjects = ['mountain', 'kitten', 'castle', 'lighthouse', 'forest', 'car', 'city', 'boat', 'wolf', 'bridge'];
// Short words, so 32 of them fit the 200 characters of `q`.
const short = [
  'sun',
  'sea',
  'car',
  'cat',
  'fog',
  'sky',
  'owl',
  'fox',
  'bay',
  'oak',
  'elk',
  'ice',
  'moon',
  'lake',
  'tree',
  'wolf',
  'rain',
  'snow',
  'dawn',
  'dusk',
  'city',
  'boat',
];
const longQuery = (offset: number) => Array.from({ length: 32 }, (_, i) => short[(i + offset) % short.length]).join(' ');
const alternatives = (offset: number) => Array.from({ length: 16 }, (_, i) => short[(i + offset) % short.length]).join(' OR ');
await compareBuilds({
  'a plural alone': plurals,
  'a setting word alone': settings,
  'a thing and a setting': subjects.flatMap((subject) => settings.slice(0, 4).map((setting) => `${subject} ${setting}`)),
  'a thing in a setting, as said': subjects.map((subject, i) => `${subject} in the ${settings[i]}`),
  '32 words': Array.from({ length: 10 }, (_, i) => longQuery(i)),
  '16 alternatives': Array.from({ length: 10 }, (_, i) => alternatives(i)),
  'plain searches': PLAIN_SEARCHES,
});

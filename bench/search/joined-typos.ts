// Searches of two plain words where one is none of the catalogue's words (their joining is then
// looked up among the catalogue's words within an edit or two, domain/with-joined-words.ts), beside
// searches of two catalogue words, on two builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/joined-typos.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const lacking = ['cozy', 'epic', 'vintage', 'lonely', 'huge', 'tiny', 'scenic', 'retro', 'peaceful', 'gloomy'];
const things = ['cabin', 'castle', 'forest', 'beach', 'city', 'lake'];
await compareBuilds({
  'a word typed in two with a typo': ['huming bird', 'sun flwer', 'light huose', 'water fal', 'sky scaper', 'rain bow', 'snow flke', 'star fsh'],
  'a word the catalogue lacks and a thing': lacking.flatMap((word) => things.map((thing) => `${word} ${thing}`)),
  'two catalogue words': things.flatMap((a) => things.filter((b) => b !== a).map((b) => `${a} ${b}`)),
  'plain searches': PLAIN_SEARCHES,
});

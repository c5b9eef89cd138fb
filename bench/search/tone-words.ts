// Searches with a tone word (matched in the tone too since the tone-word change, and with a colour
// word ranked rather than matched beside other words) against searches without either, on two
// builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/tone-words.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const tones = ['dark', 'night', 'midnight', 'amoled'];
const colours = ['red', 'yellow', 'green', 'blue', 'purple', 'black'];
const subjects = ['forest', 'sunset', 'car', 'flowers', 'mountain', 'city', 'ocean', 'abstract', 'cat', 'space'];
await compareBuilds({
  'a tone word and a thing': tones.flatMap((tone) => subjects.map((subject) => `${tone} ${subject}`)),
  'a tone word alone': [...tones, 'darkness', 'dark wallpaper'],
  'a colour and a thing': colours.flatMap((colour) => subjects.map((subject) => `${colour} ${subject}`)),
  'two things, no colour or tone': subjects.flatMap((a) => subjects.filter((b) => b !== a).map((b) => `${a} ${b}`)).slice(0, 60),
  'plain searches': PLAIN_SEARCHES,
});

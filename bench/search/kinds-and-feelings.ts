// Searches for a catalogue word that names a thing with kinds among the catalogue's words ("bird"
// eagles and owls), for words of feeling the thesaurus reads ("cute", "sad") and for praise beside a
// subject ("beautiful sunset"), against words none of that touches, on two builds side by side
// (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/kinds-and-feelings.ts [rounds]
import { compareBuilds } from './side-by-side.js';

const withKinds = ['bird', 'birds', 'mountain', 'mountains', 'planet', 'planets', 'valley', 'stadium'];
const settings = ['at dawn', 'at sunset', 'in the snow', 'at night', 'in the mist'];
const plain = ['lighthouse', 'forest', 'sunset', 'car', 'kitten', 'castle', 'nebula', 'beach'];
const feelings = ['cute', 'sad', 'creepy', 'aesthetic', 'somber', 'cold', 'mysterious', 'kawaii', 'adorable', 'scary'];
await compareBuilds({
  'a word with kinds, alone and with a setting': [...withKinds, ...withKinds.flatMap((word) => settings.map((setting) => `${word} ${setting}`))],
  'a word of feeling, alone and with a thing': [...feelings, ...feelings.flatMap((word) => plain.slice(0, 4).map((thing) => `${word} ${thing}`))],
  'praise and a thing': plain.flatMap((thing) => ['beautiful', 'amazing', 'stunning'].map((praise) => `${praise} ${thing}`)),
  'a plain word, alone and with a setting (control)': [...plain, ...plain.flatMap((word) => settings.map((setting) => `${word} ${setting}`))],
});

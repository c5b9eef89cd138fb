// Searches with a colour word (matched in the palette too since the colour-word change) against
// searches without one, on two builds side by side (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/colour-words.ts [rounds]
import { compareBuilds } from './side-by-side.js';

const colours = ['red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink', 'brown', 'black', 'white', 'gray'];
const subjects = ['forest', 'sunset', 'car', 'flowers', 'mountain', 'city', 'ocean', 'abstract', 'cat', 'space'];
await compareBuilds({
  'a colour and a thing': colours.flatMap((colour) => subjects.map((subject) => `${colour} ${subject}`)),
  'a colour alone': colours,
  'two things, no colour': subjects.flatMap((a) => subjects.filter((b) => b !== a).map((b) => `${a} ${b}`)).slice(0, 120),
});

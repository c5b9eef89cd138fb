// Searches with a colour or tone beside a figure that the catalogue's titles call by another word
// (their pixels count only where a title names the figure, since that change), against a colour or
// tone beside what fills its picture (unchanged) and plain searches, on two builds side by side
// (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/colour-beside-figure.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const colours = ['black', 'orange', 'pink', 'purple', 'grey', 'dark'];
const figures = ['cat', 'cats', 'dog', 'horse', 'house', 'cake', 'alley'];
const scenes = ['sky', 'sea', 'mountain', 'city', 'ocean'];
await compareBuilds({
  'a colour or tone beside a figure called otherwise': colours.flatMap((colour) => figures.map((figure) => `${colour} ${figure}`)),
  'a colour or tone beside what fills its picture': colours.flatMap((colour) => scenes.map((scene) => `${colour} ${scene}`)),
  'plain searches': PLAIN_SEARCHES,
});

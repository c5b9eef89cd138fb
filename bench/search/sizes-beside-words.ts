// Searches with a size typed beside other words (ranking what the words find since that change,
// where it had found every wallpaper of that size too), beside words that find nothing (searched
// again for the size alone), ratios typed (21:9: a shape since that change), sizes alone, and plain
// searches, on two builds side by side
// (side-by-side.ts).
//   BEFORE_URL=http://127.0.0.1:3006 NOW_URL=http://127.0.0.1:3005 API_KEY=… npx tsx bench/search/sizes-beside-words.ts [rounds]
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

const SIZES = ['1920x1080', '2560x1440', '3840x2160', '1170x2532', '1080x2340', '3440x1440'];
const WORDS = ['lake', 'sunset', 'mountain lake', 'black cat', 'neon city', 'space galaxy', 'forest', 'ocean waves'];

await compareBuilds({
  'a size beside words': WORDS.map((words, i) => (i % 2 === 0 ? `${SIZES[i % SIZES.length]} ${words}` : `${words} ${SIZES[i % SIZES.length]}`)),
  'a size beside words that find nothing': ['IMG_1920x1080.jpg', '1920x1080 resolution', '1920x1080 aspect ratio', 'xyzzy 2560x1440'],
  'a ratio typed': ['21:9 mountains', '16:9 sunset', '21:9 wallpaper', '9:16 city'],
  'sizes alone': ['1920x1080', '2560x1440', '1920x1080 2560x1440', '3840x2160 wallpaper'],
  'plain searches': PLAIN_SEARCHES,
});

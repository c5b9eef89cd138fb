// Searches that exclude in words ("cars not red", "flowers but not pink": not and no now exclude,
// an excluded colour its pictures too) and single words the thesaurus lists ("running", "fall": the
// word as typed now weighs less in descriptions), timed against the build before; plain searches
// beside them as the control. See side-by-side.ts for how to run it.
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

await compareBuilds({
  'exclusions in words': [
    'cars not red',
    'flowers but not pink',
    'space no planets',
    'city but not at night',
    'mountains no snow',
    'forest without fog',
    'ocean not blue',
    'beach with no people',
  ],
  'listed words': ['running', 'fall', 'kitty', 'doggo', 'sakura', 'woods', 'automobile', 'surfing'],
  'plain words': PLAIN_SEARCHES,
});

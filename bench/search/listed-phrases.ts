// Searches holding a phrase the thesaurus lists ("fall leaves", "sports venues"), which now match as
// typed only as a phrase and are read in the plural too, timed against the build before; plain
// searches beside them as the control. See side-by-side.ts for how to run it.
import { compareBuilds } from './side-by-side.js';

await compareBuilds({
  'listed phrases': [
    'fall leaves',
    'northern lights',
    'sports venues',
    'sea animals',
    'the big apple',
    'places of worship',
    'hot drinks',
    'big cats',
  ],
  'plain words': ['mountain sunset', 'kitty', 'neon city', 'calm ocean', 'dark forest', 'red car', 'snowy cabin', 'space nebula'],
});

// Searches with a no between two words (the word after it now excluded when both are nouns, read
// by WordNet before the query goes on) and words the index's stemmer reads as another catalogue
// word (now counted below what the thesaurus lists them for), timed against the build before;
// plain searches beside them as the control. See side-by-side.ts for how to run it.
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

// Both kinds of no: between nouns (now an exclusion) and between other words (still words).
const NO_BETWEEN =
  'mountains no snow|space no planets|beach no people or boats|sunset no clouds|city no cars|forest no fog|boku no hero academia|say no more';

// The readings helper-143's review changed: after an exclusion, misspelt, after filler, a word also
// an adjective or a verb, a sign's text, a saying of two, a + for a space.
const NO_REVIEWED =
  'forest -pine no fog|mountians no snow|wallpaper no people|tree no leaves|beach no sunset|road no entry sign|gym no pain no gain|mountains+no+snow';

await compareBuilds({
  'no between words': NO_BETWEEN.split('|'),
  'no, as reviewed': NO_REVIEWED.split('|'),
  'read alike': ['fall', 'snowing', 'raining', 'deserted', 'films', 'fall forest', 'snowing mountains', 'raining city'],
  'plain words': PLAIN_SEARCHES,
});

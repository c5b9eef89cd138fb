// Searches with a no between two words (the word after it now excluded when both are nouns, read
// by WordNet before the query goes on) and words the index's stemmer reads as another catalogue
// word (now counted below what the thesaurus lists them for), timed against the build before;
// plain searches beside them as the control. See side-by-side.ts for how to run it.
import { PLAIN_SEARCHES, compareBuilds } from './side-by-side.js';

// Both kinds of no: between nouns (now an exclusion) and between other words (still words).
const NO_BETWEEN =
  'mountains no snow|space no planets|beach no people or boats|sunset no clouds|city no cars|forest no fog|boku no hero academia|say no more';

await compareBuilds({
  'no between words': NO_BETWEEN.split('|'),
  'read alike': ['fall', 'snowing', 'raining', 'deserted', 'films', 'fall forest', 'snowing mountains', 'raining city'],
  'plain words': PLAIN_SEARCHES,
});

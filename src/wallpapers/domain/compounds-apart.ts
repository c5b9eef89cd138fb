import { editDistance } from '../../infra/spelling.js';
import { colorNameOfWord } from '../colors.js';
import { type SearchQuery, type Term, isPlainWord } from '../search-query.js';
import { singularOf } from './query-meaning.js';

/** What WordNet says of a catalogue's compound and a word it holds (WordClasses). */
export interface CompoundReading {
  isCompound: (words: string) => boolean;
  compoundIsOf: (compound: string, word: string) => Promise<boolean>;
}

/**
 * The catalogue's compound words (its tags that WordNet names as one thing) by each word they hold
 * before their last: "snow leopard" under snow. The last is what the compound is (a snow leopard
 * is a leopard), so a search for it finds the compound as it should.
 */
export function compoundsByWord(entries: readonly string[], reading: CompoundReading): ReadonlyMap<string, readonly string[]> {
  const byWord = new Map<string, string[]>();
  for (const entry of entries) {
    if (!entry.includes(' ') || !reading.isCompound(entry)) continue;
    const words = entry.split(' ');
    for (const word of new Set(words.slice(0, -1))) byWord.set(word, [...(byWord.get(word) ?? []), entry]);
  }
  return byWord;
}

/**
 * Of the compounds holding a word, those that name another thing: those WordNet neither lists with
 * it nor defines by it ("snow leopard", "rose window"; not "mountain range", "a series of hills or
 * mountains", whose pictures are of mountains). None for a colour: a compound holding one is mostly
 * a picture of that colour, as its pixels say (all 62 red pandas and 60 black holes of the demo
 * catalogue hold their colour), and set apart, "black space" had lost its black holes to the space
 * stations (helper-171).
 */
export async function compoundsNotOf(word: string, byWord: ReadonlyMap<string, readonly string[]>, reading: CompoundReading): Promise<string[]> {
  const compounds = byWord.get(word) ?? [];
  if (compounds.length === 0 || colorNameOfWord(word) !== null) return [];
  const of = await Promise.all(compounds.map((compound) => reading.compoundIsOf(compound, word)));
  return compounds.filter((_, i) => !of[i]);
}

// A compound's other word typed with a typo or two is said too: "snow leapord" and "snow leotard"
// are the snow leopards, as the search reads them. Wider than a typo's reach, in the safe direction:
// a compound wrongly kept is only ranked as before.
const saidNear = (part: string, said: ReadonlySet<string>): boolean =>
  said.has(part) || (part.length >= 4 && [...said].some((word) => editDistance(word, part, NEAR_EDITS) <= NEAR_EDITS));
const NEAR_EDITS = 2;

/** The readings of a query whose words are marked (search-meaning.ts, MeaningOfQuery). */
interface QueryReadings {
  query: SearchQuery | null;
  subject: Term[] | null;
  typed?: Term[][];
}

/**
 * The query's meaning with each plain word as typed marked with the catalogue's compounds that hold
 * it and name another thing (Term.apart), in the groups as typed, in its meaning and in its
 * subject, unless the query says the compound's other words too ("snow leopard" typed is the snow
 * leopards): "snow" had ranked 112 snow leopards and animals first, 55 of the leopards in no snow,
 * above every snowy landscape.
 */
export async function withCompoundsApart<M extends QueryReadings>(
  text: SearchQuery,
  meaning: M,
  notOf: (word: string) => Promise<readonly string[]>,
): Promise<M> {
  const typed = meaning.typed ?? text.groups;
  const said = new Set(
    typed.flat().flatMap(({ text: words }) =>
      words
        .toLowerCase()
        .split(' ')
        .flatMap((word) => [word, singularOf(word)]),
    ),
  );
  const apartOf = new Map<string, readonly string[]>();
  for (const term of [...typed.flat(), ...(meaning.query?.groups.flat() ?? []), ...(meaning.subject ?? [])].filter(isPlainWord)) {
    const word = term.text.toLowerCase();
    if (apartOf.has(word)) continue;
    const singular = singularOf(word);
    const compounds = [...new Set([...(await notOf(word)), ...(singular === word ? [] : await notOf(singular))])];
    apartOf.set(
      word,
      compounds.filter((compound) => compound.split(' ').every((part) => part === word || part === singular || !saidNear(part, said))),
    );
  }
  if (![...apartOf.values()].some((compounds) => compounds.length > 0)) return meaning;
  const mark = (term: Term): Term => {
    const apart = isPlainWord(term) ? apartOf.get(term.text.toLowerCase()) : undefined;
    return apart === undefined || apart.length === 0 ? term : { ...term, apart };
  };
  return {
    ...meaning,
    typed: typed.map((group) => group.map(mark)),
    query: meaning.query === null ? null : { ...meaning.query, groups: meaning.query.groups.map((group) => group.map(mark)) },
    subject: meaning.subject === null ? null : meaning.subject.map(mark),
  };
}

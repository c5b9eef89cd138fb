import type { Category } from '../../wallpapers/categories.js';
import { pick, type Random } from './prng.js';
import type { ScreenKind } from './screen-sizes.js';
import { MOODS, vocabularyOf } from './vocabulary.js';

// Words that keep their capital inside a sentence.
const PROPER_NOUNS = new Set([
  'Alps',
  'Andromeda',
  'Barcelona',
  'Berlin',
  'Earth',
  'Hollywood',
  'Hong',
  'HUD',
  'Iceland',
  'Kong',
  'Lisbon',
  'Maldives',
  'Milky',
  'New',
  'Paris',
  'Patagonia',
  'Saturn',
  'Tokyo',
  'Way',
  'York',
  'Dolomites',
]);

// Uncountable subjects take no article: "a photograph of smoke", not "of a smoke".
const MASS_NOUNS = new Set([
  'Citrus',
  'Code',
  'Coffee',
  'Glass',
  'Lavender',
  'Marble',
  'Pizza',
  'Ramen',
  'Smoke',
  'Sourdough',
  'Surf',
  'Sushi',
  'Tea',
]);

// The vocabulary is finite, so derived strings are computed once per phrase.
function memoise(derive: (phrase: string) => string): (phrase: string) => string {
  const cache = new Map<string, string>();
  return (phrase) => {
    let value = cache.get(phrase);
    if (value === undefined) {
      value = derive(phrase);
      cache.set(phrase, value);
    }
    return value;
  };
}

const inSentence = memoise((phrase) =>
  phrase
    .split(' ')
    .map((word) => (PROPER_NOUNS.has(word) ? word : word.toLowerCase()))
    .join(' '),
);

function takesNoArticle(subject: string): boolean {
  const noun = subject.slice(subject.lastIndexOf(' ') + 1);
  return MASS_NOUNS.has(noun) || (/s$/.test(noun) && !/(ss|us)$/.test(noun));
}

function withArticle(phrase: string): string {
  return (/^[aeiou]/i.test(phrase) ? 'an ' : 'a ') + phrase;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Loose stem match so "Snowy" and "in the Snow" are not paired. */
function overlaps(adjective: string, phrase: string): boolean {
  return phrase.includes(adjective.slice(0, 4));
}

export interface TitleParts {
  adjective: string | null;
  subject: string;
  setting: string | null;
}

export function composeTitleParts(random: Random, category: Category): TitleParts {
  const words = vocabularyOf(category);
  const subject = pick(random, words.subjects);
  let adjective: string | null = pick(random, words.adjectives);
  let setting: string | null = pick(random, words.settings);
  const shape = random.next();
  if (shape < 0.25) setting = null;
  else if (shape < 0.55) adjective = null;
  if (adjective !== null && overlaps(adjective, subject)) adjective = null;
  if (adjective !== null && setting !== null && overlaps(adjective, setting)) setting = null;
  return { adjective, subject, setting };
}

export function titleOf({ adjective, subject, setting }: TitleParts): string {
  let title = adjective === null ? subject : `${adjective} ${subject}`;
  if (setting !== null) title += ` ${setting}`;
  return title;
}

const SCREEN_SENTENCES: Readonly<Record<ScreenKind, readonly string[]>> = {
  desktop: ['Leaves room on the left for desktop icons.', 'Works well behind a busy desktop.', 'A good fit for a laptop or desktop monitor.'],
  ultrawide: ['Composed for ultrawide monitors, with room to spare on both sides.', 'Spans a full ultrawide screen without stretching.'],
  '4k': ['Rendered at full 4K detail for high-density displays.', 'Sharp enough for a 4K monitor.'],
  '5k': ['Rendered at full 5K detail for Retina displays.', 'Sharp enough for a 5K monitor.'],
  '8k': ['Rendered at full 8K detail, so it stays crisp when cropped.', 'Sharp enough for an 8K display.'],
  phone: [
    'Cropped for tall phone screens, with the subject kept clear of the clock.',
    'Made for lock screens and home screens.',
    'Sized to fill a modern phone edge to edge.',
  ],
  tablet: ['Sized for tablets held upright.', 'Made for a tablet lock screen.'],
};

export interface Composed {
  text: string;
  mood: string;
}

export function composeDescription(random: Random, category: Category, parts: TitleParts, screen: ScreenKind): Composed {
  const words = vocabularyOf(category);
  const medium = pick(random, words.media);
  const mood = pick(random, MOODS);
  const detail = pick(random, words.details);
  const subject = inSentence(parts.adjective === null ? parts.subject : `${parts.adjective} ${parts.subject}`);
  const ofSubject = takesNoArticle(parts.subject) ? subject : withArticle(subject);
  const setting = parts.setting === null ? '' : ` ${inSentence(parts.setting)}`;
  let first: string;
  const template = random.next();
  if (template < 0.4) first = `${capitalise(withArticle(mood))} ${medium} of ${ofSubject}${setting}, ${detail}.`;
  else if (template < 0.7) first = `${capitalise(subject)}${setting}, ${detail}.`;
  else first = `${capitalise(mood)} ${medium} of ${ofSubject}${setting}, ${detail}.`;
  if (random.next() < 0.4) return { text: first, mood };
  return { text: `${first} ${pick(random, SCREEN_SENTENCES[screen])}`, mood };
}

// Words a setting starts with that say where or when, not what: "at Golden Hour" is tagged
// "golden hour".
const LEADING_FILLER = new Set([
  'a',
  'after',
  'at',
  'before',
  'behind',
  'beneath',
  'beyond',
  'by',
  'from',
  'in',
  'off',
  'on',
  'over',
  'the',
  'under',
]);

function asTag(phrase: string): string {
  const words = phrase.toLowerCase().split(' ');
  while (words.length > 1 && LEADING_FILLER.has(words[0]!)) words.shift();
  return words.join(' ');
}

/** A demo wallpaper's tags, from its words: its subject, adjective, setting, mood and category. */
export function tagsOf(category: Category, { adjective, subject, setting }: TitleParts, mood: string): string[] {
  const tags = [subject, adjective, setting].filter((part): part is string => part !== null).map(asTag);
  return [...new Set([...tags, mood, category])];
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const slugPart = memoise(slugify);

/** Same as slugify(titleOf(parts)), from cached per-phrase slugs. */
export function slugOf({ adjective, subject, setting }: TitleParts): string {
  let slug = slugPart(subject);
  if (adjective !== null) slug = `${slugPart(adjective)}-${slug}`;
  if (setting !== null) slug += `-${slugPart(setting)}`;
  return slug;
}

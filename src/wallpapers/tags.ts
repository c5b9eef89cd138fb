/**
 * Tags are lower-case words or short phrases of ASCII letters and digits, single spaces or hyphens
 * between them ("pine forest", "sci-fi"): the catalogue is written in English, and every tag then
 * reads the same in a URL, a facet and the contract's pattern.
 */
export const TAG_PATTERN = '^[a-z0-9]+(?:[ -][a-z0-9]+)*$';
export const MAX_TAG_LENGTH = 32;
export const MAX_TAGS = 20;

const TAG = new RegExp(TAG_PATTERN);

export function isTag(value: string): boolean {
  return value.length <= MAX_TAG_LENGTH && TAG.test(value);
}

// The scripts whose letters pass for one another: Latin `a`, Cyrillic `а` and Greek `α` show alike
// in most fonts (Unicode TS #39, confusables).
const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/**
 * Whether a name mixes letters of Latin, Cyrillic and Greek: `аlice` with a Cyrillic `а` beside
 * `alice`. A name in one of them alone (`иван`, `alice`), or in any other script, is not refused;
 * a name written wholly in letters of another script that look like Latin ones is still possible
 * (whole-script confusables), which is why operators reach portal accounts by id only.
 */
export function mixesLookAlikeScripts(name: string): boolean {
  return LOOK_ALIKE_SCRIPTS.filter((script) => script.test(name)).length > 1;
}

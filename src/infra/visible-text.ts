// Characters that do not show as themselves: controls (C0, C1, the escape that starts a terminal
// sequence), format characters (zero-width space and joiners, bidirectional overrides), private
// use, unassigned code points, line and paragraph separators, and the other default-ignorable
// code points (Hangul fillers and the like), which render as nothing.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/** True when the text holds a character that would not show as itself (see INVISIBLE). */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * The text as a terminal may print it: every invisible character written as `\u{…}`, so a name
 * cannot set the terminal's title, hide text or rewrite the line, and what is there can be seen.
 */
export function printable(text: string): string {
  return text.replace(INVISIBLE_ALL, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** JSON with every invisible character escaped as \uXXXX: still the same JSON to a parser. */
export function printableJson(value: unknown): string {
  // A raw line feed is the layout's own: inside strings, JSON.stringify has escaped them already.
  return JSON.stringify(value, null, 2).replace(INVISIBLE_ALL, (c) =>
    c === '\n' ? c : [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

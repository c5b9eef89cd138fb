const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Already-safe markup, as built by `html`. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Hole = string | number | Markup | null | undefined | false | readonly Hole[];

function render(hole: Hole): string {
  if (hole === null || hole === undefined || hole === false) return '';
  if (hole instanceof Markup) return hole.value;
  if (Array.isArray(hole)) return hole.map(render).join('');
  return escapeHtml(String(hole));
}

/** A template tag that escapes every interpolated value unless it is Markup: nothing a user typed reaches the page raw. */
export function html(strings: TemplateStringsArray, ...holes: Hole[]): Markup {
  return new Markup(strings.reduce((out, text, i) => out + text + (i < holes.length ? render(holes[i]) : ''), ''));
}

import { Ajv, type ErrorObject } from 'ajv';
import { CATEGORIES } from '../../wallpapers/categories.js';
import { parseResolution, RESOLUTION_PATTERN } from '../../wallpapers/resolution.js';
import { MAX_COLORS } from '../../wallpapers/colors.js';
import { MAX_TAG_LENGTH, MAX_TAGS, TAG_PATTERN } from '../../wallpapers/tags.js';
import { type Deletion, WALLPAPER_FIELDS, type WallpaperDocument, type WallpaperRecord } from '../../wallpapers/wallpaper.js';
import { duplicateKeyOf } from './duplicate-keys.js';
import { printable } from '../../infra/visible-text.js';

export const MAX_TITLE_LENGTH = 500;
export const MAX_DESCRIPTION_LENGTH = 10_000;
export const MAX_URL_LENGTH = 2048;

// Milliseconds at most: Elasticsearch's `date` keeps no finer precision.
const UTC_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,3})?Z$/;

/** `YYYY-MM-DDTHH:MM:SS[.mmm]Z` naming a day and time that exist (no 31 April, no leap seconds). */
export function isUtcTimestamp(value: string): boolean {
  const match = UTC_TIMESTAMP.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [...WALLPAPER_FIELDS],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    title: { type: 'string', maxLength: MAX_TITLE_LENGTH, pattern: '\\S' },
    description: { type: 'string', maxLength: MAX_DESCRIPTION_LENGTH },
    url: { type: 'string', maxLength: MAX_URL_LENGTH, format: 'http-url' },
    thumbnail: { type: 'string', maxLength: MAX_URL_LENGTH, format: 'http-url' },
    resolution: { type: 'string', pattern: RESOLUTION_PATTERN },
    category: { type: 'string', enum: [...CATEGORIES] },
    downloads: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    created_at: { type: 'string', format: 'utc-timestamp' },
    // Repeats are looked for in tagProblems: ajv's uniqueItems took two thirds of the schema's check.
    tags: { type: 'array', maxItems: MAX_TAGS, items: { type: 'string', maxLength: MAX_TAG_LENGTH, pattern: TAG_PATTERN } },
    colors: {
      type: 'array',
      maxItems: MAX_COLORS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['hex', 'share'],
        properties: { hex: { type: 'string', pattern: '^#[0-9a-f]{6}$' }, share: { type: 'number', minimum: 0, maximum: 1 } },
      },
    },
  },
} as const;

// A rounding error per share, as exporters write shares to a few decimals.
const SHARE_SLACK = 1e-3;

/** A tag given twice, in any record that has a list of tags (also one failing the schema otherwise). */
function tagProblems(tags: unknown): string[] {
  return Array.isArray(tags) && new Set(tags).size !== tags.length ? ['tags must not repeat'] : [];
}

// A title is one line; a description may break lines (CR, LF, and Unicode's NEL). Any other
// control character (NUL, the completion field's reserved U+001F, escapes) is refused here, by
// name, rather than by Elasticsearch with a long reason, or served to clients as it came.
const CONTROL = /\p{Cc}/u;
const LINE_CONTROL = /(?![\t\n\r\u0085])\p{Cc}/u;
// A lone UTF-16 surrogate (JSON's "\ud800") is no character: no client could show it. In a /u
// pattern a whole pair is one code point, so the range meets only a lone half.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
// One pass over each field finds either (the common case, nothing, costs one test a field).
const ODD_IN_TITLE = /[\p{Cc}\ud800-\udfff]/u;
const ODD_IN_DESCRIPTION = /(?![\t\n\r\u0085])[\p{Cc}\ud800-\udfff]/u;

// A title that shows nothing: spaces, characters that render as nothing (a zero-width space, a
// byte order mark, the braille blank), and marks with no letter to sit on, which the schema's "not
// blank" lets through.
const NOTHING_SHOWN = /^[\s\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\u2800\u{1d159}]*$/u;
const SHOWN_ASCII = /[!-~]/;

/** What a schema cannot say about the text: controls, halves of characters, a title that shows nothing. */
function textProblems({ title, description }: { title: string; description: string }): string[] {
  // A visible ASCII character settles it at once: the Unicode pattern cost every record 0.5 µs.
  const blank = !SHOWN_ASCII.test(title) && NOTHING_SHOWN.test(title);
  if (!blank && !ODD_IN_TITLE.test(title) && !ODD_IN_DESCRIPTION.test(description)) return [];
  const problems: string[] = blank ? ['title must hold a character that shows (not only spaces or invisible ones)'] : [];
  if (CONTROL.test(title)) problems.push('title must not hold control characters');
  if (LINE_CONTROL.test(description)) problems.push('description must not hold control characters other than tabs and line breaks');
  for (const [field, text] of [
    ['title', title],
    ['description', description],
  ] as const) {
    if (LONE_SURROGATE.test(text)) problems.push(`${field} must be whole Unicode characters (it holds half of one: a lone surrogate)`);
  }
  return problems;
}

/** What a schema cannot say about a palette: one entry per colour, shares descending, not above the whole. */
function paletteProblems(colors: WallpaperRecord['colors']): string[] {
  if (!colors) return [];
  const problems: string[] = [];
  if (new Set(colors.map(({ hex }) => hex)).size !== colors.length) problems.push('colors must name each hex once');
  if (colors.some(({ share }, i) => i > 0 && share > colors[i - 1]!.share)) problems.push('colors must be in descending order of share');
  if (colors.reduce((sum, { share }) => sum + share, 0) > 1 + SHARE_SLACK * colors.length) problems.push('colors shares must add up to at most 1');
  return problems;
}

// The patterns are ASCII: without the u flag, each test skips decoding surrogate pairs.
const ajv = new Ajv({ allErrors: true, strict: true, unicodeRegExp: false });
ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
ajv.addFormat('utc-timestamp', { type: 'string', validate: isUtcTimestamp });
const validateWallpaper = ajv.compile<WallpaperRecord>(SCHEMA);

function describeError(error: ErrorObject): string {
  const path = error.instancePath.slice(1).split('/');
  const field = path[0] ?? '';
  if (field === 'tags' || field === 'colors') return describeDescriptionError(error, field);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing field "${String(params['missingProperty'])}"`;
    case 'additionalProperties':
      return `unknown field "${String(params['additionalProperty'])}"`;
    case 'type':
      return field === ''
        ? 'the record must be a JSON object'
        : `${field} must be ${params['type'] === 'integer' ? 'an integer' : `a ${String(params['type'])}`}`;
    case 'enum':
      return `category must be one of ${CATEGORIES.join(', ')}`;
    case 'format':
      return params['format'] === 'utc-timestamp'
        ? `${field} must be a real date and time in ISO 8601 UTC, like 2024-05-01T12:00:00Z`
        : `${field} must be an absolute http(s) URL`;
    case 'pattern':
      return field === 'resolution' ? 'resolution must be <width>x<height> in pixels, like 1920x1080' : `${field} must not be blank`;
    case 'minimum':
    case 'maximum':
      return `${field} must be ${field === 'id' ? 'a positive' : 'a non-negative'} safe integer`;
    case 'maxLength':
      return `${field} must be at most ${String(params['limit'])} characters`;
    default:
      return `${field || 'the record'} ${error.message ?? 'is invalid'}`;
  }
}

function describeDescriptionError(error: ErrorObject, field: 'tags' | 'colors'): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return field === 'tags' && error.instancePath !== '/tags'
        ? 'each tag must be a string'
        : `${field} must be ${field === 'tags' ? 'an array of strings' : 'an array of {hex, share}'}`;
    case 'maxItems':
      return `${field} must have at most ${String(params['limit'])} entries`;
    case 'maxLength':
    case 'pattern':
      return field === 'tags'
        ? `each tag must be at most ${MAX_TAG_LENGTH} characters of lower-case letters a-z and digits, words joined by single spaces or hyphens`
        : 'each colour hex must be #rrggbb in lower case, like #1e3a5f';
    case 'minimum':
    case 'maximum':
      return 'each colour share must be a number from 0 to 1';
    case 'required':
    case 'additionalProperties':
      return 'each colour must be an object with exactly hex and share';
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

export type RecordVerdict =
  | { ok: true; document: WallpaperDocument }
  | { ok: true; deletion: Deletion }
  | { ok: false; code: 'invalid_json' | 'invalid_record'; reason: string; id: number | string | null };

/** A line with `deleted`: exactly `{"id": N, "deleted": true}`, nothing else beside. */
function checkDeletion(value: object, deletions: boolean, text: string): RecordVerdict {
  const id = idAsWritten(idOf(value), text);
  if (!deletions) {
    return {
      ok: false,
      code: 'invalid_record',
      reason: 'a deletion needs --incremental: a full import replaces the catalogue with its file, so what the file leaves out is deleted',
      id,
    };
  }
  const fields = value as Record<string, unknown>;
  const extra = Object.keys(fields).filter((key) => key !== 'id' && key !== 'deleted');
  const problems = [
    ...(fields['deleted'] === true ? [] : ['deleted must be true']),
    ...(Number.isSafeInteger(fields['id']) && (fields['id'] as number) >= 1 ? [] : ['id must be a positive safe integer']),
    ...extra.map((key) => `a deletion has only id and deleted, not "${key}"`),
  ];
  if (problems.length > 0) return { ok: false, code: 'invalid_record', reason: problems.join('; '), id };
  return { ok: true, deletion: { id: fields['id'] as number, deleted: true } };
}

/** An id past what a number holds exactly is named as the line wrote it, not as JSON.parse rounded it. */
function idAsWritten(id: number | string | null, text: string): number | string | null {
  if (typeof id !== 'number' || Number.isSafeInteger(id)) return id;
  return /"id"\s*:\s*(-?[0-9][0-9.eE+-]*)/.exec(text)?.[1] ?? id;
}

function idOf(value: unknown): number | string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' || typeof id === 'string' ? id : null;
}

/**
 * Checks one NDJSON line as a wallpaper record (the spec's nine fields, and optionally its tags
 * and palette) and derives the stored document, or, where `deletions` are accepted, as a
 * deletion. Every problem of the record is named, not just the first.
 */
export function checkRecord(text: string, { deletions = false }: { deletions?: boolean } = {}): RecordVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Printable: the parser quotes what it met, which may be a NUL (a UTF-16 file read as UTF-8).
    return {
      ok: false,
      code: 'invalid_json',
      reason: `invalid JSON: ${printable(error instanceof Error ? error.message : String(error))}`,
      id: null,
    };
  }
  const twice = duplicateKeyOf(text, value);
  if (twice !== null) {
    return { ok: false, code: 'invalid_json', reason: `invalid JSON: the name ${JSON.stringify(twice)} appears twice in one object`, id: null };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'deleted' in value) {
    return checkDeletion(value, deletions, text);
  }
  if (!validateWallpaper(value)) {
    const tags = typeof value === 'object' && value !== null ? (value as { tags?: unknown }).tags : undefined;
    const reasons = [...new Set([...(validateWallpaper.errors ?? []).map(describeError), ...tagProblems(tags)])];
    return { ok: false, code: 'invalid_record', reason: reasons.join('; '), id: idAsWritten(idOf(value), text) };
  }
  const problems = [...textProblems(value), ...tagProblems(value.tags), ...paletteProblems(value.colors)];
  if (problems.length > 0) return { ok: false, code: 'invalid_record', reason: problems.join('; '), id: value.id };
  // The parsed value is this call's own: given its shape in place, not copied (a copy per record).
  const document = value as WallpaperDocument;
  const { width, height } = parseResolution(value.resolution) as { width: number; height: number };
  document.width = width;
  document.height = height;
  return { ok: true, document };
}

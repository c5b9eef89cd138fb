import { countWords } from '../wallpapers/search-query.js';
import { Ajv, type ErrorObject } from 'ajv';
import type { ParamsSchema } from '../openapi/parameters.js';
import { ERROR_MESSAGE_MAX, invalidRequest } from './http-error.js';
import { printable } from '../infra/visible-text.js';

export type RawParams = Record<string, string | string[] | undefined>;

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true });

// Values above the clamp are served at the clamp (the spec's "maximum 100" for
// per_page is read as a cap on the size used, reported back in meta.per_page).
ajv.addKeyword({
  keyword: 'x-clamp-maximum',
  type: 'number',
  modifying: true,
  schemaType: 'number',
  validate: (limit: number, data: number, _schema?: unknown, cxt?: { parentData: Record<string, unknown>; parentDataProperty: string | number }) => {
    if (cxt && data > limit) cxt.parentData[cxt.parentDataProperty] = limit;
    return true;
  },
});
ajv.addKeyword({ keyword: 'x-format-hint', schemaType: 'string' });

// Words are counted as a search reads them (wallpapers/search-query.ts).
export { countWords };

// A bound on the words of a search: each becomes exact and typo-tolerant clauses on several
// fields, and Elasticsearch refuses a query past its clause limit.
ajv.addKeyword({
  keyword: 'x-max-words',
  type: 'string',
  schemaType: 'number',
  validate: (limit: number, data: string) => countWords(data) <= limit,
});

// One spelling per number: no sign but a minus (which then meets the bound it breaks), no leading
// zeros. `05` and `+5` would otherwise be other URLs, cache entries and cursor queries for `5`.
const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;

// A name the client chose is echoed at most this long, and at most this many of them: an error
// message stays readable, and within the contract's bound on it, whatever the request held.
const SHOWN_NAME_MAX = 40;
const SHOWN_NAMES_MAX = 5;

// Shown as `\u{…}`, a character that would not show as itself (a right-to-left override, a zero
// width space) cannot turn the rest of the message round, or hide in it, where a client prints it.
function quoted(name: string): string {
  const chars = [...name];
  return `'${printable(chars.length > SHOWN_NAME_MAX ? `${chars.slice(0, SHOWN_NAME_MAX).join('')}…` : name)}'`;
}

function unknownMessage(names: string[], schema: ParamsSchema, location: string): string {
  const shown = names.slice(0, SHOWN_NAMES_MAX).map(quoted).join(', ');
  const more = names.length > SHOWN_NAMES_MAX ? ` and ${names.length - SHOWN_NAMES_MAX} more` : '';
  const allowed = Object.keys(schema.properties).join(', ') || 'none';
  return `Unknown ${location} parameter${names.length > 1 ? 's' : ''} ${shown}${more} (allowed: ${allowed})`;
}

/** A message on one parameter, and how many of its problems it names. */
interface Said {
  text: string;
  problems: number;
}

/** The messages joined while they fit in an error message; the problems of the rest are counted, not dropped silently. */
function boundedList(messages: readonly Said[]): string {
  const kept: string[] = [];
  let length = 0;
  let left = 0;
  for (const { text, problems } of messages) {
    const added = (kept.length > 0 ? 2 : 0) + text.length;
    // 40 characters stay free for the count of the rest.
    if (left > 0 || (kept.length > 0 && length + added > ERROR_MESSAGE_MAX - 40)) left += problems;
    else {
      kept.push(text);
      length += added;
    }
  }
  return left > 0 ? `${kept.join('; ')}; and ${left} more problem${left > 1 ? 's' : ''}` : kept.join('; ');
}

/** `05` is an integer to a reader: the rule it breaks is the one spelling each number has here. */
const PLAIN_INTEGER = "an integer in plain decimal digits (no leading zeros, '+', '.' or exponent)";

function describe(error: ErrorObject, schema: ParamsSchema, location: string): string {
  // A value inside a comma-separated list is /name/index: the rule is the list's item rule.
  const [name = '', index] = error.instancePath.replace(/^\//, '').split('/');
  const list = schema.properties[name];
  const prop = index === undefined ? list : list?.items;
  const each = index === undefined ? '' : 'each value ';
  switch (error.keyword) {
    case 'required':
      return `Missing required ${location} parameter '${String(error.params['missingProperty'])}'`;
    case 'type':
      return `Invalid ${location} parameter '${name}': ${each}must be ${error.params['type'] === 'integer' ? PLAIN_INTEGER : 'a string'}`;
    case 'minimum':
      return `Invalid ${location} parameter '${name}': ${each}must be an integer >= ${String(error.params['limit'])}`;
    case 'maximum':
      return `Invalid ${location} parameter '${name}': ${each}must be an integer <= ${String(error.params['limit'])}`;
    case 'minItems':
      return `Invalid ${location} parameter '${name}': must have at least ${String(error.params['limit'])} comma-separated value(s)`;
    case 'maxItems':
      return `Invalid ${location} parameter '${name}': must have at most ${String(error.params['limit'])} comma-separated values`;
    case 'minLength':
      return `Invalid ${location} parameter '${name}': ${each}must be at least ${String(error.params['limit'])} character(s) after trimming`;
    case 'maxLength':
      return `Invalid ${location} parameter '${name}': ${each}must be at most ${String(error.params['limit'])} characters`;
    case 'enum':
      return `Invalid ${location} parameter '${name}': ${each}must be one of ${(prop?.enum ?? []).join(', ')}`;
    case 'x-max-words':
      return `Invalid ${location} parameter '${name}': must have at most ${String(prop?.['x-max-words'])} words`;
    case 'pattern':
      return `Invalid ${location} parameter '${name}': ${each}must have the form ${prop?.['x-format-hint'] ?? String(error.params['pattern'])}`;
    default:
      return `Invalid ${location} parameter '${name}': ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Compiles a parameter schema once. The returned function turns raw query or
 * path parameters into typed values (defaults and bounds from the schema) or
 * throws a 400 naming every offending parameter and its rule.
 */
export function compileParams<T>(schema: ParamsSchema, location: 'query' | 'path' = 'query'): (raw: RawParams) => T {
  const check = compileParamsCheck<T>(schema, location);
  return (raw) => {
    const { data, problems } = check(raw);
    refuseIfAny(problems);
    return data;
  };
}

const ABOUT_PARAMETER = /^(Invalid \w+ parameter '[^']*'): (.*)$/s;

/** Two rules one parameter breaks said after its name once: "'resolution': …; …", not the name twice. */
function byParameter(problems: readonly string[]): Said[] {
  const rules = new Map<string, string[]>();
  for (const problem of problems) {
    const [, about = problem, rule] = ABOUT_PARAMETER.exec(problem) ?? [];
    rules.set(about, [...(rules.get(about) ?? []), ...(rule === undefined ? [] : [rule])]);
  }
  return [...rules].map(([about, broken]) => ({
    text: broken.length === 0 ? about : `${about}: ${broken.join('; ')}`,
    problems: Math.max(1, broken.length),
  }));
}

/** A 400 naming every problem, as many as one message holds (a path's and its query's together). */
export function refuseIfAny(problems: readonly string[]): void {
  if (problems.length > 0) throw invalidRequest(boundedList(byParameter(problems)));
}

/** As compileParams, but returning the problems found instead of refusing them. */
export function compileParamsCheck<T>(
  schema: ParamsSchema,
  location: 'query' | 'path' = 'query',
): (raw: RawParams) => { data: T; problems: string[] } {
  const validate = ajv.compile(schema);
  const integerKeys = new Set(
    Object.entries(schema.properties)
      .filter(([, p]) => p.type === 'integer')
      .map(([k]) => k),
  );
  const listKeys = new Map(
    Object.entries(schema.properties)
      .filter(([, p]) => p.type === 'array')
      .map(([k, p]) => [k, p.items?.type === 'integer'] as const),
  );
  // Only plain decimal integers are accepted: no "1.0", "0x10", "1e3", "05", "+5" or "". One past the largest
  // double (309 digits and up) is taken as that largest double, not Infinity, so it meets the
  // bound it breaks (or per_page's cap) like any other large number, not the type rule.
  const integer = (text: string) => {
    if (!INTEGER_TEXT.test(text)) return text;
    const value = Number(text);
    return Number.isFinite(value) ? value : Math.sign(value) * Number.MAX_VALUE;
  };
  return (raw) => {
    // No prototype: a parameter named __proto__ or constructor is then an own property like any
    // other, which the schema refuses as unknown instead of the assignment swallowing it.
    const data: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    const repeated: string[] = [];
    for (const [key, value] of Object.entries(raw)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) {
        // A name the route does not take is unknown however often it comes: said to be repeated,
        // a client that sent it once would then be told it is unknown.
        if (Object.hasOwn(schema.properties, key)) repeated.push(key);
        else data[key] = value.join(',');
        continue;
      }
      // A path names one resource one way: its segment is taken as it comes, untrimmed.
      const text = location === 'path' ? value : value.trim();
      const list = listKeys.get(key);
      if (list !== undefined) {
        const values = text.split(',').map((item) => item.trim());
        data[key] = list ? values.map(integer) : values;
      } else data[key] = integerKeys.has(key) ? integer(text) : text;
    }
    const messages = repeated.map((k) => `Invalid ${location} parameter ${quoted(k)}: must be given at most once`);
    if (!validate(data)) {
      // Every broken rule of every parameter, except that a value of the wrong type is only
      // said to be of the wrong type (its bounds mean nothing then), and an empty one only to be
      // empty (its form means nothing then).
      // Unknown names are named together, in one message.
      const errors = validate.errors ?? [];
      const mistyped = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
      const empty = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
      const unknown = errors.filter((e) => e.keyword === 'additionalProperties').map((e) => String(e.params['additionalProperty']));
      if (unknown.length > 0) messages.push(unknownMessage(unknown, schema, location));
      const seen = new Set<string>();
      for (const error of errors) {
        if (error.keyword === 'additionalProperties' || (mistyped.has(error.instancePath) && error.keyword !== 'type')) continue;
        if (empty.has(error.instancePath) && error.keyword === 'pattern') continue;
        // A required name sent more than once is not missing: it is said to be repeated, above.
        if (error.keyword === 'required' && repeated.includes(String(error.params['missingProperty']))) continue;
        const message = describe(error, schema, location);
        if (seen.has(message)) continue;
        seen.add(message);
        messages.push(message);
      }
    }
    return { data: data as T, problems: messages };
  };
}

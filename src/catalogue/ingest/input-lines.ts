import type { Readable } from 'node:stream';

/** One line of the input, as read: its text, or why it cannot be read as text. */
export type InputLine =
  | { kind: 'text'; text: string }
  /** Not UTF-8: `text` shows it with U+FFFD where its bytes were not, for the rejects file only. */
  | { kind: 'not_utf8'; text: string }
  /** Longer than the bound: never held whole; `text` is its start, `bytes` its length. */
  | { kind: 'too_long'; text: string; bytes: number };

const NEWLINE = 0x0a;
const CR = 0x0d;
/** What a too-long line shows of itself in the rejects file. */
const HEAD_BYTES = 200;

/**
 * Splits a byte stream into lines at LF only, as NDJSON does: a CR before the LF is dropped, and
 * a CR anywhere else is JSON whitespace, not a line end (node:readline ended a line there, so a
 * record with one was read as two and every later line number was off by one). Each line is
 * decoded as strict UTF-8: a line with bytes that are not is reported as such, not loaded with
 * U+FFFD in their place. A line past `maxBytes` is not buffered (one 600 MB line without a newline
 * had crashed the importer); it is reported with its length. The stream's end or its error ends
 * the lines, so destroying it stops a reader at once.
 */
export async function* inputLines(input: Readable, maxBytes: number): AsyncGenerator<InputLine, void, undefined> {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  let pieces: Buffer[] = [];
  let length = 0;
  let head: Buffer | null = null;
  let lastByte = -1;

  function finish(): InputLine {
    const line = read();
    pieces = [];
    length = 0;
    head = null;
    lastByte = -1;
    return line;
  }

  function read(): InputLine {
    const crlf = lastByte === CR;
    if (head !== null) return { kind: 'too_long', text: lenient.decode(head), bytes: crlf ? length - 1 : length };
    let bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, length);
    if (crlf) bytes = bytes.subarray(0, -1);
    if (bytes.length > maxBytes) return { kind: 'too_long', text: lenient.decode(bytes.subarray(0, HEAD_BYTES)), bytes: bytes.length };
    try {
      return { kind: 'text', text: strict.decode(bytes) };
    } catch {
      return { kind: 'not_utf8', text: lenient.decode(bytes) };
    }
  }

  /** One byte past the bound is held: it may be the CR of a CRLF line exactly at the bound. */
  function keep(part: Buffer): void {
    if (part.length === 0) return;
    lastByte = part[part.length - 1]!;
    if (head === null && length + part.length > maxBytes + 1) {
      head = Buffer.concat([...pieces, part]).subarray(0, HEAD_BYTES);
      pieces = [];
    }
    if (head === null) pieces.push(part);
    length += part.length;
  }

  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      keep(bytes.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    if (start < bytes.length) keep(bytes.subarray(start));
  }
  // A last line without its newline is a line; an input that ends with a newline has no empty one after it.
  if (length > 0) yield finish();
}

/** Where batched lines go: anything with a write, such as process.stdout. */
export interface LineTarget {
  write(chunk: string): unknown;
}

export interface BatchedLines {
  /** Takes one whole line (pino's destination interface); always accepts it. */
  write(line: string): boolean;
  /** Writes what is held now, in one write. */
  flush(): void;
}

export interface BatchOptions {
  /** Written at once when this many characters are held. */
  maxChars?: number;
  /** A line waits at most this long for others to join it. */
  maxDelayMs?: number;
}

/**
 * Joins log lines into one write to the target: with one access-log line per request, a write
 * (a system call on a pipe, a file or a terminal) per line costs the API more than composing
 * the line does. A line is held until 16 KB of lines are waiting or 50 ms have passed since the
 * first of them, whichever is sooner; nothing is written while none are waiting, so an idle
 * process wakes for nothing (pino's own buffered destination flushes on a timer, held lines or
 * not, with a write of nothing each time). Lines keep their order. The owner flushes at exit and after each
 * warning or error (see createLogger); a process that ends without its 'exit' event (SIGKILL,
 * abort, out of memory, a signal it does not handle) loses at most its last 50 ms of lines.
 */
export function batchedLines(target: LineTarget, { maxChars = 16_384, maxDelayMs = 50 }: BatchOptions = {}): BatchedLines {
  let held: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (held.length === 0) return;
    const chunk = held.length === 1 ? held[0]! : held.join('');
    held = [];
    chars = 0;
    target.write(chunk);
  }

  return {
    write(line) {
      held.push(line);
      chars += line.length;
      if (chars >= maxChars) flush();
      else if (timer === undefined) timer = setTimeout(flush, maxDelayMs).unref();
      return true;
    },
    flush,
  };
}

import cliProgress from 'cli-progress';

export interface ProgressReporter {
  /** `done` counts every settled document, failed ones included. */
  update(done: number, failed?: number): void;
  /** Writes a line of its own without garbling the bar. */
  log(line: string): void;
  /** Stops the display, writes the summary line and returns it. */
  finish(): string;
}

export interface ProgressOptions {
  /** Undefined when unknown (a pipe): the rate is shown without a bar or ETA. */
  total?: number;
  label?: string;
  /** What is counted, as in `docs/s`. */
  unit?: string;
  /** What the uncounted ones are called, as in `(3 failed)`. */
  failedWord?: string;
  stream?: NodeJS.WriteStream;
  /** Defaults to whether the stream is a terminal. */
  tty?: boolean;
  /** Plain-mode line interval. */
  intervalMs?: number;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A cli-progress bar on a terminal, otherwise one plain line every interval; always to stderr by default. */
export function createProgress({
  total,
  label = 'loaded',
  unit = 'docs',
  failedWord = 'failed',
  stream = process.stderr,
  tty = stream.isTTY === true,
  intervalMs = 2000,
}: ProgressOptions): ProgressReporter {
  const started = performance.now();
  let done = 0;
  let failed = 0;
  let finished = false;
  const known = total !== undefined;
  const elapsed = () => (performance.now() - started) / 1000;
  const rate = () => (elapsed() > 0 ? done / elapsed() : 0);
  const eta = () => formatDuration(known && rate() > 0 ? (total - done) / rate() : Infinity);
  const percent = () => (known && total > 0 ? ((100 * done) / total).toFixed(1) : '100.0');
  const failures = () => (failed > 0 ? ` (${failed} ${failedWord})` : '');

  const format = known
    ? `${label} [{bar}] {percentage}% {value}/{total} {rate} ${unit}/s eta {eta_human}{failures}`
    : `${label} {value} ${unit} {rate} ${unit}/s{failures}`;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format,
          stream,
          hideCursor: true,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  const payload = () => ({ rate: Math.round(rate()), eta_human: eta(), failures: failures() });
  bar?.start(total ?? 0, 0, payload());

  const printLine = () =>
    stream.write(
      known
        ? `${label} ${done}/${total} (${percent()}%) ${Math.round(rate())} ${unit}/s eta ${eta()}${failures()}\n`
        : `${label} ${done} ${unit} ${Math.round(rate())} ${unit}/s${failures()}\n`,
    );
  // A timer rather than update-driven printing, so a stalled load still shows signs of life.
  const timer = tty ? null : setInterval(printLine, intervalMs);
  timer?.unref();

  return {
    update(value, failedSoFar = failed) {
      done = value;
      failed = failedSoFar;
      bar?.update(done, payload());
    },
    log(line) {
      // The bar redraws itself below the line at its next update.
      stream.write(bar !== null && !finished ? `\r\x1b[2K${line}\n` : `${line}\n`);
    },
    finish() {
      const seconds = elapsed();
      const count = known ? `${done}/${total}` : `${done}`;
      const summary = `${label} ${count} ${unit} in ${seconds.toFixed(1)}s (${Math.round(seconds > 0 ? done / seconds : 0)} ${unit}/s)${failures()}`;
      if (!finished) {
        finished = true;
        if (timer !== null) clearInterval(timer);
        bar?.update(done, payload());
        bar?.stop();
        stream.write(`${summary}\n`);
      }
      return summary;
    },
  };
}

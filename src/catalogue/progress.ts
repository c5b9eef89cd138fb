import cliProgress from 'cli-progress';

export interface ProgressReporter {
  /** `done` counts every settled document, failed ones included. */
  update(done: number, failed?: number): void;
  /** Stops the display, writes the summary line and returns it. */
  finish(): string;
}

export interface ProgressOptions {
  total: number;
  label?: string;
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
export function createProgress({ total, label = 'loaded', stream = process.stderr, tty = stream.isTTY === true, intervalMs = 2000 }: ProgressOptions): ProgressReporter {
  const started = performance.now();
  let done = 0;
  let failed = 0;
  let finished = false;
  const elapsed = () => (performance.now() - started) / 1000;
  const rate = () => (elapsed() > 0 ? done / elapsed() : 0);
  const eta = () => formatDuration(rate() > 0 ? (total - done) / rate() : Infinity);
  const percent = () => (total > 0 ? ((100 * done) / total).toFixed(1) : '100.0');
  const failures = () => (failed > 0 ? ` (${failed} failed)` : '');

  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format: `${label} [{bar}] {percentage}% {value}/{total} {rate} docs/s eta {eta_human}{failures}`,
          stream,
          hideCursor: true,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  const payload = () => ({ rate: Math.round(rate()), eta_human: eta(), failures: failures() });
  bar?.start(total, 0, payload());

  const printLine = () => stream.write(`${label} ${done}/${total} (${percent()}%) ${Math.round(rate())} docs/s eta ${eta()}${failures()}\n`);
  // A timer rather than update-driven printing, so a stalled load still shows signs of life.
  const timer = tty ? null : setInterval(printLine, intervalMs);
  timer?.unref();

  return {
    update(value, failedSoFar = failed) {
      done = value;
      failed = failedSoFar;
      bar?.update(done, payload());
    },
    finish() {
      const seconds = elapsed();
      const summary = `${label} ${done}/${total} docs in ${seconds.toFixed(1)}s (${Math.round(seconds > 0 ? done / seconds : 0)} docs/s)${failures()}`;
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

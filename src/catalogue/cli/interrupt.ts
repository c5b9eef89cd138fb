export type StopSignal = 'SIGINT' | 'SIGTERM';

export class Interrupted extends Error {
  constructor(readonly signal: StopSignal) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }

  /** The shell's convention: 128 + signal number. */
  get exitCode(): number {
    return this.signal === 'SIGINT' ? 130 : 143;
  }
}

export interface InterruptTrap {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * The first SIGINT/SIGTERM aborts `signal` so the run can clean up; a second one exits at once
 * (what it leaves behind is marked `building` and removed by the next run).
 */
export function trapInterrupts(onInterrupt: (signal: StopSignal) => void = () => undefined): InterruptTrap {
  const controller = new AbortController();
  const handle = (signal: StopSignal) => {
    if (controller.signal.aborted) process.exit(new Interrupted(signal).exitCode);
    onInterrupt(signal);
    controller.abort(new Interrupted(signal));
  };
  const onInt = () => handle('SIGINT');
  const onTerm = () => handle('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

/** Interrupted anywhere in the error's cause chain. */
export function interruptionOf(error: unknown): Interrupted | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof Interrupted) return current;
  }
  return null;
}

import { readFileSync } from 'node:fs';

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

/** What a run says when it is told to stop. */
export function stopping(reason: StopSignal | 'parent gone'): string {
  return reason === 'parent gone'
    ? 'npm, which started this run, has gone: stopping and cleaning up'
    : `${reason} received: stopping and cleaning up (again to quit at once)`;
}

/** A process's parent, from /proc (Linux); null where that cannot be read. */
function parentOf(pid: number): number | null {
  try {
    // The command name, in brackets, may hold spaces: the fields after its closing bracket are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// How often a run started by npm looks whether npm is still there.
const PARENT_CHECK_MS = 1000;

/**
 * The first SIGINT/SIGTERM aborts `signal` so the run can clean up; a second one exits at once
 * (what it leaves behind is marked `building` and removed by the next run). A run started by
 * `npm run` also stops so when npm goes: npm does not pass SIGTERM on, so `kill <npm>` or
 * `timeout 600 npm run import` had left the import running on its own, to go live later and leave
 * its lock behind (review). A run started otherwise (`scripts/reindex`, `nohup`) outlives its
 * parent, as such runs should.
 */
export function trapInterrupts(onInterrupt: (signal: StopSignal | 'parent gone') => void = () => undefined): InterruptTrap {
  const controller = new AbortController();
  const handle = (signal: StopSignal, said: StopSignal | 'parent gone' = signal) => {
    if (controller.signal.aborted) process.exit(new Interrupted(signal).exitCode);
    onInterrupt(said);
    controller.abort(new Interrupted(signal));
  };
  const onInt = () => handle('SIGINT');
  const onTerm = () => handle('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const parent = process.ppid;
  // npm runs the command through a shell, which outlives npm killed with SIGKILL: npm is the
  // shell's parent, watched too.
  const npm = parentOf(parent);
  const gone = () => process.ppid !== parent || (npm !== null && !alive(npm));
  const watch =
    process.env['npm_lifecycle_event'] === undefined
      ? undefined
      : setInterval(() => {
          if (gone() && !controller.signal.aborted) handle('SIGTERM', 'parent gone');
        }, PARENT_CHECK_MS).unref();
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      clearInterval(watch);
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

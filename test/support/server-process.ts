import { type ChildProcess, spawn } from 'node:child_process';
import { nodeArgsFor } from './compiled-scripts.js';

/** Resolves once the child writes `text` to its standard output; rejects if it exits first or takes longer than `timeoutMs`. */
export function waitForLine(child: ChildProcess, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no '${text}' within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before '${text}':\n${seen}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

export interface ServerProcess {
  server: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

/**
 * src/server.ts as production starts it (its own process, configured by the environment only);
 * resolves once it listens. One that does not listen in time is killed, not left behind.
 */
export async function spawnServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const server = spawn(process.execPath, nodeArgsFor('src/server.ts'), { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    await waitForLine(server, '"msg":"listening"', 30_000);
  } catch (err) {
    server.kill('SIGKILL');
    throw err;
  }
  return { server, exited, output: () => output };
}

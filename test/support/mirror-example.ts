import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * docs/examples/mirror.py once, against the API at `apiUrl`, keeping its copy in `state`; with the
 * Python client's virtualenv, as scripts/python-env.sh makes it. Rejects (with `code`, `stderr`)
 * when it exits other than 0.
 */
export function runMirrorExample(state: string, apiUrl: string, apiKey: string): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)('clients/python/.venv/bin/python', ['docs/examples/mirror.py', state], {
    env: { ...process.env, API_URL: apiUrl, API_KEY: apiKey },
    timeout: 60_000,
  });
}

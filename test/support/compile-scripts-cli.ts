// Transpiles src/ and scripts/ (compiled-scripts.ts) into the folder given, under test-output/, and
// prints it: for a test run outside mocha (scripts/python-tests.sh) to spawn them as the integration
// suite does, in a folder of its own so that neither run replaces the other's files.
import { join } from 'node:path';
import { ROOT, compileScripts } from './compiled-scripts.js';

const folder = process.argv[2] ?? 'compiled';
if (!/^[\w-]+$/.test(folder)) throw new Error(`a folder name under test-output/, not ${folder}`);
process.stdout.write(`${await compileScripts(join(ROOT, 'test-output', folder))}\n`);

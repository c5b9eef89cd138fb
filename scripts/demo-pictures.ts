import { parseArgs } from 'node:util';
import { createPictureServer } from '../src/catalogue/generation/picture-server.js';

const USAGE = `usage: npm run demo:pictures -- [--seed S]
  Serves the pictures of the demo catalogue made with seed S (default 42) at IMAGE_BASE_URL
  (default http://127.0.0.1:3100), on the host and port it names (HOST overrides the host)`;

function readArgs() {
  try {
    return parseArgs({ options: { seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (err) {
    process.stderr.write(`demo-pictures: ${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

const values = readArgs();
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const imageBaseUrl = process.env['IMAGE_BASE_URL'] ?? 'http://127.0.0.1:3100';
const base = new URL(imageBaseUrl);
const seed = Number(values.seed ?? 42);
if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff || base.protocol !== 'http:') {
  process.stderr.write(`demo-pictures: ${USAGE}\n`);
  process.exit(2);
}
const server = createPictureServer({ seed, imageBaseUrl });
// HOST widens where it listens (0.0.0.0 in a container), as it does for the API.
server.listen(Number(base.port || 80), process.env['HOST'] ?? base.hostname, () => {
  process.stderr.write(`demo-pictures: serving the pictures of seed ${seed} at ${imageBaseUrl}\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));

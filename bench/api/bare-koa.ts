// Compiled and started by startBareKoa (bench/api/processes.ts): node bench/tmp/bare-koa/bench/api/bare-koa.js <port> <json body file>
import { readFileSync } from 'node:fs';
import Koa from 'koa';

const [port, bodyFile] = process.argv.slice(2);
const body: unknown = JSON.parse(readFileSync(bodyFile as string, 'utf8'));
const app = new Koa();
app.use((ctx) => {
  // An object, not a string: Koa serialises it on each request, as the API's handlers do.
  ctx.body = body;
});
const server = app.listen(Number(port), '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));

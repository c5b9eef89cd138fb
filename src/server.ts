import { ConfigError, loadConfig } from './config.js';
import { withCursorSecretFile } from './infra/cursor-secret-file.js';
import { startServer } from './start-server.js';

// The launcher: reads the environment, starts the server, and turns signals into a shutdown.
// SIGTERM comes from an orchestrator: readiness drains first. Ctrl-C stops at once.
try {
  const config = loadConfig(withCursorSecretFile(process.env));
  const server = await startServer(config);
  const stop = (drainMs: number) => {
    void server.close({ drainMs }).then((clean) => process.exit(clean ? 0 : 1));
  };
  process.on('SIGTERM', () => stop(config.shutdownDrainMs));
  process.on('SIGINT', () => stop(0));
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

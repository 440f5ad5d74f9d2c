import { BootAbortedError } from './boot';
import { ConfigError, loadConfig } from './config';
import { start } from './start';

/** The process entry point: configuration, start, and the one place signals and crashes are handled. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // A SIGTERM/SIGINT while the process still waits for its database ends the wait: it exits 0.
  const booting = new AbortController();
  const cancelBoot = () => booting.abort();
  process.once('SIGTERM', cancelBoot);
  process.once('SIGINT', cancelBoot);
  let server: Awaited<ReturnType<typeof start>>;
  try {
    server = await start(config, { signal: booting.signal });
  } catch (error) {
    if (error instanceof BootAbortedError && booting.signal.aborted) {
      process.stderr.write('start-up cancelled by a signal while waiting for the database\n');
      process.exit(0);
    }
    throw error;
  }
  process.removeListener('SIGTERM', cancelBoot);
  process.removeListener('SIGINT', cancelBoot);
  const { logger } = server;
  // Log collectors read stdout as JSON lines (pino): the human welcome only goes to a terminal. The
  // `listening` log record carries the same port and role for everyone else.
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\nTally is listening on ${server.url} (ROLE=${config.role})\n` +
        `Try: curl -s -X POST ${server.url}/v1/auth/register -H 'Content-Type: application/json' ` +
        `-d '{"email":"ada@example.com","name":"Ada","password":"correct horse"}'   — API docs at ${server.url}/docs\n\n`,
    );
  }

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'draining');
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  // A signal that came once the database was reached but before the start-up was over.
  if (booting.signal.aborted) shutdown('SIGTERM');
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

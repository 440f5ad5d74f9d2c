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
  const server = await start(config);
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

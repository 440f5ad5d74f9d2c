import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccessTokens, createApp, type GroupEvent } from '@tally/api';
import { createKnex, isEmbedded, migrateLatest } from '@tally/db';
import { createInProcessBus, type EventBus } from '@tally/events';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Config } from './config';
import { resolveJwtSecret } from './jwt-secret';
import { createLogger } from './logger';

export type RunningServer = {
  url: string;
  port: number;
  knex: Knex;
  logger: Logger;
  /** Drains and stops: readiness fails, new requests get 503, in-flight ones finish, connections close. */
  stop(): Promise<void>;
};

/** Wires one process by hand from its configuration (the composition root) and starts listening. */
export async function start(config: Config, overrides: { logger?: Logger } = {}): Promise<RunningServer> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const knex = createKnex({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateLatest(knex);

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const bus: EventBus = createInProcessBus();
  const tokens = createAccessTokens({
    secret: resolveJwtSecret(config.jwtSecret, config.dataDir),
    ttlSeconds: config.accessTokenTtlSeconds,
  });

  let draining = false;
  const notify = (events: readonly GroupEvent[]) => {
    for (const event of events) {
      bus.publish({ groupId: event.groupId, seq: event.seq, eventId: event.id }).catch((err: unknown) => {
        logger.warn({ err, eventId: event.id }, 'event publish failed; the relay will retry');
      });
    }
  };
  const app = createApp({
    knex,
    tokens,
    logger,
    registry,
    notify,
    isReady: async () => {
      if (draining) return false;
      await knex.raw('select 1');
      return true;
    },
  });

  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  logger.info({ port, role: config.role, embedded: isEmbedded(knex) }, 'listening');

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    knex,
    logger,
    stop() {
      stopping ??= (async () => {
        draining = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timeout = new Promise<void>((resolve) =>
          setTimeout(resolve, config.shutdownTimeoutSeconds * 1000).unref(),
        );
        await Promise.race([closed, timeout]);
        server.closeAllConnections();
        await bus.close();
        await knex.destroy();
      })();
      return stopping;
    },
  };
}

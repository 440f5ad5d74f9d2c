import { randomUUID } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * One process's liveness, which every lease it takes names (ARCHITECTURE.md, "The idempotency
 * layer around it", Liveness): while the process runs, a heartbeat keeps a short-lived mark; once the process dies
 * the mark lapses, and a retry may take over its leases at once instead of waiting them out.
 */
export type ProcessLiveness = {
  readonly processId: string;
  /** Sets the mark and starts the heartbeat: one timer per process, not per request. */
  start(): Promise<void>;
  /** Stops the heartbeat and removes the mark, so any lease still held can be taken over at once. */
  stop(): Promise<void>;
};

/**
 * Liveness mark lifetime: a dead process's leases are taken over at most this long after its death,
 * which bounds the slowest retried write across a crash (the target: 3 s end to end).
 * @default 2000
 */
export const LIVENESS_TTL_MS = 2000;
/** Heartbeat period: the mark survives three missed beats (a 1.5 s event-loop stall). @default 500 */
export const LIVENESS_INTERVAL_MS = 500;

/** The Redis key of a process's liveness mark, under the store's prefix (`idem:alive:<processId>`). */
export const livenessKeyPrefix = (keyPrefix: string): string => `${keyPrefix}alive:`;

/**
 * Where an error goes that is caught and not acted on: the shape of `@tally/http-kit`'s
 * `IgnoredErrors` (counted in `ignored_errors_total{reason}`), which this package does not depend on.
 */
export type OnIgnoredError = (reason: string, error: unknown, context?: Record<string, unknown>) => void;

export type RedisLivenessOptions = {
  redis: Redis | Cluster;
  keyPrefix?: string;
  processId?: string;
  ttlMs?: number;
  intervalMs?: number;
  /** Says when beats reach Redis again after failing. */
  logger?: Logger;
  /**
   * Every failed beat (`liveness_heartbeat`, each one: pass a reporter that counts them all and
   * logs a reason now and then) and a mark that `stop` could not remove (`liveness_stop`).
   * @default a warn line on `logger` for each
   */
  onIgnoredError?: OnIgnoredError;
};

/**
 * The fleet's liveness: `SET <prefix>alive:<processId> 1 PX ttlMs`, refreshed every `intervalMs`.
 * One key per process, read by claims with a plain `EXISTS` (never inside a script: on a Redis
 * Cluster the mark and a lease are in different slots).
 * A failed beat (Redis down) is reported, not thrown: the mark lapses, and the worst that follows is
 * that a retry takes over a live process's lease; the durable record still stops a second commit.
 */
export function createRedisLiveness(options: RedisLivenessOptions): ProcessLiveness {
  const { redis, logger } = options;
  const processId = options.processId ?? randomUUID();
  const key = `${livenessKeyPrefix(options.keyPrefix ?? 'idem:')}${processId}`;
  const ttlMs = options.ttlMs ?? LIVENESS_TTL_MS;
  const intervalMs = options.intervalMs ?? LIVENESS_INTERVAL_MS;
  const ignored: OnIgnoredError =
    options.onIgnoredError ??
    ((reason, err, context) => logger?.warn({ ...context, reason, err }, `error ignored (${reason})`));
  let timer: NodeJS.Timeout | undefined;
  /** Beats failed since the last one that reached Redis. */
  let failures = 0;
  const beat = () =>
    redis.set(key, '1', 'PX', ttlMs).then(
      () => {
        if (failures > 0) logger?.info({ processId, failures }, 'liveness heartbeat reaches Redis again');
        failures = 0;
      },
      (err: unknown) => {
        failures++;
        ignored('liveness_heartbeat', err, { processId, failures });
      },
    );

  return {
    processId,
    async start() {
      if (timer) return;
      timer = setInterval(beat, intervalMs);
      timer.unref();
      await beat();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      // Left in place, the mark lapses within ttlMs: the leases are taken over that much later.
      await redis.del(key).catch((err: unknown) => ignored('liveness_stop', err, { processId }));
    },
  };
}

/**
 * Liveness for the in-memory store: a registry of the live processes sharing one store. In the
 * embedded default that is the one process, alive while it runs; tests register several and stop
 * one to model a process that died.
 */
export function createMemoryLiveness() {
  const alive = new Set<string>();
  return {
    isAlive: (processId: string): boolean => alive.has(processId),
    /** A process of this registry; alive from `start()` until `stop()`. */
    process(processId: string = randomUUID()): ProcessLiveness {
      return {
        processId,
        async start() {
          alive.add(processId);
        },
        async stop() {
          alive.delete(processId);
        },
      };
    },
  };
}

export type MemoryLiveness = ReturnType<typeof createMemoryLiveness>;

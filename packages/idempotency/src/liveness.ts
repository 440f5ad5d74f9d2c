import { randomUUID } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/**
 * One process's liveness, which every lease it takes names (ARCHITECTURE "Leases belong to live
 * processes"): while the process runs, a heartbeat keeps a short-lived mark; once the process dies
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
 * The fleet's liveness: `SET <prefix>alive:<processId> 1 PX ttlMs`, refreshed every `intervalMs`.
 * One key per process, read by claims with a plain `EXISTS` (never inside a script: on a Redis
 * Cluster the mark and a lease are in different slots).
 * A failed beat (Redis down) is not an error: the mark lapses, and the worst that follows is that a
 * retry takes over a live process's lease; the durable record still stops a second commit.
 */
export function createRedisLiveness(options: {
  redis: Redis | Cluster;
  keyPrefix?: string;
  processId?: string;
  ttlMs?: number;
  intervalMs?: number;
}): ProcessLiveness {
  const { redis } = options;
  const processId = options.processId ?? randomUUID();
  const key = `${livenessKeyPrefix(options.keyPrefix ?? 'idem:')}${processId}`;
  const ttlMs = options.ttlMs ?? LIVENESS_TTL_MS;
  const intervalMs = options.intervalMs ?? LIVENESS_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  const beat = () =>
    redis.set(key, '1', 'PX', ttlMs).then(
      () => {},
      () => {},
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
      await redis.del(key).catch(() => 0);
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

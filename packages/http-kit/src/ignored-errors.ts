import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';

/**
 * Where an error goes that is caught and deliberately not acted on (a heartbeat that did not reach
 * Redis, an unsubscribe that failed, a readiness check that threw): `reason` is a stable snake_case
 * name of the place (`liveness_heartbeat`, `unsubscribe`, ...), `context` what a reader of the log
 * line needs (a group, a channel). Call it for every such error, however often it repeats: each one
 * is counted, and the logging is kept to a line now and then (see `createIgnoredErrors`).
 *
 * Packages that do not depend on this one take an option of the same function type (`onIgnoredError`).
 */
export type IgnoredErrors = (reason: string, error: unknown, context?: Record<string, unknown>) => void;

export const IGNORED_ERRORS_METRIC = 'ignored_errors_total';

/** A reason that repeats is logged at most this often. @default 60000 */
export const IGNORED_ERRORS_LOG_INTERVAL_MS = 60_000;

export type IgnoredErrorsOptions = {
  logger?: Logger;
  /** Where `ignored_errors_total{reason}` is registered; a counter already there is shared. */
  registry?: Registry;
  /** How often a reason that keeps failing is logged again. @default IGNORED_ERRORS_LOG_INTERVAL_MS */
  logIntervalMs?: number;
};

/**
 * Counts every ignored error in `ignored_errors_total{reason}` and logs it as one warn line with the
 * error and its context, except that a reason already logged within `logIntervalMs` is only counted:
 * a failure that repeats every second (Redis down under a heartbeat) gives one line, then one a
 * minute with `suppressed`, how many were counted since the last line without one of their own.
 * Factories that know when their failure ends log that themselves. Several of these may share a
 * registry: the counter is registered once and reused.
 */
export function createIgnoredErrors(options: IgnoredErrorsOptions = {}): IgnoredErrors {
  const { logger } = options;
  const counter = ignoredErrorsCounter(options.registry);
  const intervalMs = options.logIntervalMs ?? IGNORED_ERRORS_LOG_INTERVAL_MS;
  /** Per reason: when its last line was logged, and how many were counted since without a line. */
  const lines = new Map<string, { at: number; suppressed: number }>();

  return (reason, error, context) => {
    counter.inc({ reason });
    if (!logger) return;
    const now = Date.now();
    const last = lines.get(reason);
    if (last !== undefined && now - last.at < intervalMs) {
      last.suppressed++;
      return;
    }
    lines.set(reason, { at: now, suppressed: 0 });
    logger.warn(
      { ...context, reason, err: error, ...(last?.suppressed ? { suppressed: last.suppressed } : {}) },
      `error ignored (${reason})`,
    );
  };
}

/** The registry's `ignored_errors_total`, registered there by the first caller. */
function ignoredErrorsCounter(registry: Registry | undefined): Counter<'reason'> {
  const existing = registry?.getSingleMetric(IGNORED_ERRORS_METRIC);
  if (existing instanceof Counter) return existing as Counter<'reason'>;
  if (existing !== undefined)
    throw new Error(`${IGNORED_ERRORS_METRIC} is registered already, and is not a counter`);
  return new Counter({
    name: IGNORED_ERRORS_METRIC,
    help: 'Errors caught and not acted on (logged at most once a minute per reason), by reason',
    labelNames: ['reason'] as const,
    registers: registry ? [registry] : [],
  });
}

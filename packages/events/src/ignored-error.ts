import type { Logger } from 'pino';

/**
 * Where an error goes that is caught and not acted on (an unsubscribe that failed, a malformed bus
 * message): `reason` is a stable snake_case name of the place. The shape of `@tally/http-kit`'s
 * `IgnoredErrors`, which counts it in `ignored_errors_total{reason}` (this package does not depend
 * on that one): the composition root passes one to every factory that takes `onIgnoredError`.
 */
export type OnIgnoredError = (reason: string, error: unknown, context?: Record<string, unknown>) => void;

/** The factory's `onIgnoredError`, or else a warn line on its logger for each error (nothing without one). */
export function ignoredErrorsOf(options: {
  onIgnoredError?: OnIgnoredError;
  logger?: Logger;
}): OnIgnoredError {
  const { onIgnoredError, logger } = options;
  return (
    onIgnoredError ??
    ((reason, err, context) => logger?.warn({ ...context, reason, err }, `error ignored (${reason})`))
  );
}

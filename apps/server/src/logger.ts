import { requestContext } from '@tally/api';
import pino, { type Logger } from 'pino';

/** JSON logs; every line written during a request carries its request id and user id. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'tally' },
    mixin: () => {
      const ctx = requestContext.getStore();
      return ctx ? { requestId: ctx.requestId, userId: ctx.userId } : {};
    },
  });
}

import { AppError } from '@tally/http-kit';
import { parseIdempotencyKey } from '@tally/idempotency';
import type { RequestHandler } from 'express';

/**
 * Money writes must carry an `Idempotency-Key`; other writes may. The key is left on
 * `res.locals.idempotencyKey` for the idempotency layer.
 */
export function idempotencyKey(options: { required: boolean }): RequestHandler {
  return (req, res, next) => {
    const parsed = parseIdempotencyKey(req.headers['idempotency-key']);
    if (parsed.ok) {
      res.locals['idempotencyKey'] = parsed.key;
    } else if (parsed.reason === 'invalid') {
      throw new AppError(
        'idempotency_key_invalid',
        400,
        'Idempotency-Key must be 1–255 printable ASCII characters.',
      );
    } else if (options.required) {
      throw new AppError('idempotency_key_missing', 400, 'This money write needs an Idempotency-Key header.');
    }
    next();
  };
}

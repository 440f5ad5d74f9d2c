import { AppError } from '@tally/http-kit';
import { parseIdempotencyKey } from '@tally/idempotency';
import type { RequestHandler } from 'express';

const requirements = new WeakMap<object, 'required' | 'optional'>();

/** Whether a middleware is the key check of a money write (`required`) or of another write (`optional`). */
export const keyRequirementOf = (handler: unknown): 'required' | 'optional' | undefined =>
  typeof handler === 'function' ? requirements.get(handler) : undefined;

/**
 * Money writes must carry an `Idempotency-Key`; other writes may. The key is left on
 * `res.locals.idempotencyKey` for the idempotency layer.
 */
export function idempotencyKey(options: { required: boolean }): RequestHandler {
  const check: RequestHandler = (req, res, next) => {
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
  requirements.set(check, options.required ? 'required' : 'optional');
  return check;
}

import { validationFailed } from '@tally/http-kit';
import type Joi from 'joi';

const OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  errors: { wrap: { label: false } },
};

/** Validates one part of a request against its schema; every failure becomes one entry of `errors`. */
export function validate<T>(
  schema: Joi.Schema,
  value: unknown,
  where: 'body' | 'query' | 'path' = 'body',
): T {
  const target = where === 'body' && value === undefined ? undefined : value;
  const { value: result, error } = schema.validate(target, OPTIONS);
  if (error) {
    const errors = error.details.map((d) => ({
      path: d.path.length > 0 ? d.path.join('.') : where,
      message: d.message,
    }));
    throw validationFailed(errors, `The request ${where} is not valid.`);
  }
  if (where === 'body' && result === undefined) {
    throw validationFailed(
      [{ path: 'body', message: 'a JSON body is required' }],
      'The request body is missing.',
    );
  }
  return result as T;
}

import { validationFailed } from '@tally/http-kit';
import type Joi from 'joi';

const OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  errors: { wrap: { label: false } },
};

/** Whether any string (value or key) in `value` holds U+0000: one walk, no allocation. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key])) return true;
    }
  }
  return false;
}

/** Paths of strings holding U+0000, which PostgreSQL text cannot store (walked only when there are some). */
function nulPaths(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path.join('.'));
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) nulPaths(item, [...path, String(i)], found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) found.push([...path, key].join('.'));
      nulPaths(item, [...path, key], found);
    }
  }
  return found;
}

/** Validates one part of a request against its schema; every failure becomes one entry of `errors`. */
export function validate<T>(
  schema: Joi.Schema,
  value: unknown,
  where: 'body' | 'query' | 'path' = 'body',
): T {
  const target = where === 'body' && value === undefined ? undefined : value;
  const nul = holdsNul(target) ? nulPaths(target) : [];
  if (nul.length > 0) {
    throw validationFailed(
      nul.map((path) => ({ path: path || where, message: 'must not contain the NUL character' })),
      `The request ${where} is not valid.`,
    );
  }
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

import { validationFailed } from '@tally/http-kit';
import type Joi from 'joi';

const OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  errors: { wrap: { label: false } },
};

/**
 * Characters no string of a request may hold, whatever its field: U+0000, which PostgreSQL text
 * cannot store, and a lone surrogate, which is not Unicode (PostgreSQL would store U+FFFD while the
 * event's JSON kept the surrogate, and strict JSON parsers refuse it). The `u` flag makes a
 * well-formed surrogate pair one code point, which does not match.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what this refuses
const NEVER = /[\u0000\p{Cs}]/u;

/** Whether any string (value or key) in `value` holds a character of `NEVER`: one walk, no allocation. */
function holdsNever(value: unknown): boolean {
  if (typeof value === 'string') return NEVER.test(value);
  if (Array.isArray(value)) return value.some(holdsNever);
  if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (NEVER.test(key) || holdsNever((value as Record<string, unknown>)[key])) return true;
    }
  }
  return false;
}

const neverMessage = (text: string) =>
  text.includes('\u0000')
    ? 'must not contain the NUL character'
    : 'must be well-formed Unicode (no lone surrogates)';

/** Each string of `NEVER` (walked only when there are some), with its path and what is wrong. */
function neverPaths(
  value: unknown,
  path: string[] = [],
  found: { path: string; message: string }[] = [],
): { path: string; message: string }[] {
  if (typeof value === 'string') {
    if (NEVER.test(value)) found.push({ path: path.join('.'), message: neverMessage(value) });
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) neverPaths(item, [...path, String(i)], found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (NEVER.test(key)) found.push({ path: [...path, key].join('.'), message: neverMessage(key) });
      neverPaths(item, [...path, key], found);
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
  const never = holdsNever(target) ? neverPaths(target) : [];
  if (never.length > 0) {
    throw validationFailed(
      never.map(({ path, message }) => ({ path: path || where, message })),
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

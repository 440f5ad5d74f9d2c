import type { FieldError } from './domain-error';

/**
 * Records an error unless `value` is a non-empty id not already in `seen`, and remembers it.
 * Listing a member twice is rejected rather than merged, because the client almost certainly meant
 * something else and a silent merge would change who owes what.
 *
 * @returns the id when it is usable, otherwise `undefined`
 */
export function validateUserId(
  value: unknown,
  path: string,
  seen: Set<string>,
  errors: FieldError[],
): string | undefined {
  if (typeof value !== 'string' || value.length === 0) {
    errors.push({ path, message: 'must be a non-empty string' });
    return undefined;
  }
  if (seen.has(value)) {
    errors.push({ path, message: `lists ${value} more than once` });
    return undefined;
  }
  seen.add(value);
  return value;
}

import { DomainError } from './domain-error';

/** Runs `action` and returns the DomainError it throws, failing the test if it throws nothing or something else. */
export function catchDomainError(action: () => unknown): DomainError {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, but nothing was thrown');
}

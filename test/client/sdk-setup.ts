/**
 * What the SDK tests share: the password their users sign up with, a client that retries quickly
 * (10 ms base delay, 5 s per attempt) against a test server, and the error a promise rejects with.
 */
import { TallyClient } from '../../packages/client/src';

export const PASSWORD = 'correct horse battery';

/** A client of the server at `baseUrl` whose retries are quick enough for a test. */
export const quickClient = (baseUrl: string): TallyClient =>
  new TallyClient({ baseUrl, retry: { baseDelayMs: 10, attemptTimeoutMs: 5000 } });

/** The error `promise` rejects with; a promise that resolves fails the test. */
export const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

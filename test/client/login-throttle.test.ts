/**
 * The SDK against a real server whose login throttle is on (API.md §2): a locked login surfaces as
 * `RateLimitedError` carrying `retryAfterMs`, after one request (login is never retried), and the
 * right password gets in once the delay has passed.
 */
import { InvalidCredentialsError, RateLimitedError, TallyClient } from '../../packages/client/src';
import { startTestServer, type TestServer } from '../support/test-server';

const PASSWORD = 'correct horse battery';
const LOCK_SECONDS = 3;

describe('SDK: a throttled login', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        LOGIN_THROTTLE_ACCOUNT_FREE_FAILURES: '2',
        LOGIN_THROTTLE_IP_FREE_FAILURES: '20',
        // A lock long enough that the login after the one that locks finds it locked on a loaded
        // machine too (1 s was not), short enough to wait for.
        LOGIN_THROTTLE_FIRST_DELAY_SECONDS: String(LOCK_SECONDS),
        LOGIN_THROTTLE_MAX_DELAY_SECONDS: String(LOCK_SECONDS),
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('throws RateLimitedError with retryAfterMs, without retrying, then signs in after the delay', async () => {
    const ada = await t.register('Ada');
    const sleeps: number[] = [];
    const tally = new TallyClient({ baseUrl: t.url, sleep: async (ms) => void sleeps.push(ms) });
    const outcome = (password: string) =>
      tally.auth.login({ email: ada.email, password }).then(
        () => 'signed in',
        (error: unknown) => error,
      );
    for (let i = 0; i < 3; i++) expect(await outcome(`wrong ${i}`)).toBeInstanceOf(InvalidCredentialsError);
    const locked = await outcome(PASSWORD);
    expect(locked).toBeInstanceOf(RateLimitedError);
    const retryAfterMs = (locked as RateLimitedError).retryAfterMs;
    expect(retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(retryAfterMs).toBeLessThanOrEqual(LOCK_SECONDS * 1000);
    expect(sleeps).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, (retryAfterMs ?? 0) + 50));
    expect(await outcome(PASSWORD)).toBe('signed in');
  });
});

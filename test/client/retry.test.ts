import {
  HttpClient,
  type HttpClientOptions,
  HttpError,
  IdempotencyKeyReusedError,
  NetworkError,
  NotFoundError,
  PreconditionFailedError,
  ProblemError,
  RequestAbortedError,
  RetryExhaustedError,
  type RetryInfo,
  TallyClient,
  TallyError,
  TimeoutError,
  UnavailableError,
  ValidationFailedError,
} from '../../packages/client/src';
import { until } from '../support/until';
import { json, problem, ScriptedServer } from './scripted-server';

/** Ends a `hang` attempt: far longer than a local answer takes, however loaded the machine. */
const ATTEMPT_TIMEOUT_MS = 1_000;

/**
 * The retry rules of the HTTP core against a scripted local server. Time is injected: `sleep`
 * records the waits instead of waiting, `random` fixes the jitter, so nothing here measures the clock.
 */
describe('HTTP client retries', () => {
  let server: ScriptedServer;
  let sleeps: number[];
  let retries: RetryInfo[];

  const client = (options: Partial<HttpClientOptions> = {}) =>
    new HttpClient({
      baseUrl: server.url,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      onRetry: (info) => retries.push(info),
      ...options,
    });
  const keysOf = () => server.requests.map((r) => r.headers['idempotency-key']);
  const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );

  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    sleeps = [];
    retries = [];
  });

  describe('backoff', () => {
    it('waits in exponential windows of 1 s, 2 s, 4 s, 8 s with full jitter', async () => {
      server.reply(
        problem(503, 'unavailable'),
        problem(503, 'unavailable'),
        problem(503, 'unavailable'),
        problem(503, 'unavailable'),
        json(200, { ok: true }),
      );
      const res = await client({ random: () => 0.5 }).request({ method: 'GET', path: '/v1/groups' });
      expect(res.data).toEqual({ ok: true });
      expect(res.attempts).toBe(5);
      expect(sleeps).toEqual([500, 1000, 2000, 4000]);

      server.reset();
      sleeps = [];
      server.reply(problem(500, 'internal_error'), problem(500, 'internal_error'), json(200, {}));
      await client({ random: () => 0.999 }).request({ method: 'GET', path: '/v1/groups' });
      expect(sleeps).toEqual([999, 1998]);

      server.reset();
      sleeps = [];
      server.reply(problem(500, 'internal_error'), problem(500, 'internal_error'), json(200, {}));
      await client({ random: () => 0 }).request({ method: 'GET', path: '/v1/groups' });
      expect(sleeps).toEqual([0, 0]);
    });

    it('takes a configurable base and caps the window at maxDelayMs', async () => {
      for (let i = 0; i < 5; i++) server.reply(problem(502, 'internal_error'));
      server.reply(json(200, {}));
      await client({ retry: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 6 } }).request({
        method: 'GET',
        path: '/v1/me',
      });
      expect(sleeps).toEqual([5, 10, 20, 25, 25]);
    });

    it('never waits less than Retry-After (seconds), and keeps a longer jittered wait', async () => {
      server.reply(
        problem(429, 'rate_limited', { 'Retry-After': '3' }),
        problem(503, 'unavailable', { 'Retry-After': '1' }),
        json(200, {}),
      );
      await client({ random: () => 0.9 }).request({ method: 'GET', path: '/v1/groups' });
      // Retry 1: jitter 900 ms < Retry-After 3 s → 3 s. Retry 2: jitter 1800 ms > Retry-After 1 s → 1.8 s.
      expect(sleeps).toEqual([3000, 1800]);
      expect(retries.map((r) => (r.error as ProblemError).retryAfterMs)).toEqual([3000, 1000]);
    });

    it('ends the call at once when Retry-After asks for more than maxRetryAfterMs, saying when to try again', async () => {
      server.reply(problem(503, 'unavailable', { 'Retry-After': '86400' }), json(200, {}));
      const error = await client()
        .request({ method: 'GET', path: '/v1/groups' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).retryAfterMs).toBe(86_400_000);
      expect(sleeps).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });

    it('waits out a Retry-After up to maxRetryAfterMs, which a caller may raise', async () => {
      server.reply(problem(429, 'rate_limited', { 'Retry-After': '300' }), json(200, {}));
      await client({ retry: { maxRetryAfterMs: 300_000 } }).request({ method: 'GET', path: '/v1/groups' });
      expect(sleeps).toEqual([300_000]);
    });

    it('honours Retry-After as an HTTP date', async () => {
      const now = Date.UTC(2026, 10, 25, 10, 0, 0);
      server.reply(
        problem(503, 'unavailable', { 'Retry-After': new Date(now + 7000).toUTCString() }),
        json(200, {}),
      );
      await client({ now: () => now, random: () => 0.1 }).request({ method: 'GET', path: '/v1/groups' });
      expect(sleeps).toEqual([7000]);
    });
  });

  describe('what is retried', () => {
    it('retries GET, HEAD, PUT and DELETE after 5xx, including a non-problem 502 from a proxy', async () => {
      const http = client();
      for (const method of ['GET', 'HEAD', 'PUT', 'DELETE'] as const) {
        server.reset();
        server.reply({ status: 502, headers: { 'Content-Type': 'text/html' }, raw: '<h1>Bad gateway</h1>' });
        server.reply(method === 'DELETE' ? { status: 204 } : json(200, { method }));
        const res = await http.request({
          method,
          path: '/v1/expenses/exp_1',
          ...(method === 'PUT' ? { body: {} } : {}),
        });
        expect(server.requests.map((r) => r.method)).toEqual([method, method]);
        expect(res.attempts).toBe(2);
      }
      expect(retries.every((r) => r.error instanceof HttpError && r.error.code === 'http_error')).toBe(true);
    });

    it('retries a keyed POST after 409 idempotency_key_in_progress, with the same key, honouring Retry-After: 1', async () => {
      server.reply(
        problem(409, 'idempotency_key_in_progress', { 'Retry-After': '1' }),
        problem(409, 'idempotency_key_in_progress', { 'Retry-After': '1' }),
        json(201, { id: 'exp_1' }, { 'Idempotent-Replayed': 'true' }),
      );
      const res = await client({ random: () => 0.1 }).request({
        method: 'POST',
        path: '/v1/expenses',
        body: { a: 1 },
      });
      expect(res.status).toBe(201);
      expect(res.replayed).toBe(true);
      expect(sleeps).toEqual([1000, 1000]);
      const keys = keysOf();
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
      expect(res.idempotencyKey).toBe(keys[0]);
    });

    it('retries a keyed write after a network error and after a per-attempt timeout, with the same key', async () => {
      server.reply({ action: 'destroy' }, { action: 'hang' }, json(201, { id: 'stl_1' }));
      const res = await client({ retry: { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS } }).request({
        method: 'POST',
        path: '/v1/settlements',
        body: { amount: 1 },
      });
      expect(res.data).toEqual({ id: 'stl_1' });
      expect(retries.map((r) => r.error.constructor)).toEqual([NetworkError, TimeoutError]);
      expect(new Set(keysOf()).size).toBe(1);
      expect(keysOf()[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });

    it('retries a keyed PATCH', async () => {
      server.reply(problem(503, 'unavailable'), json(200, { id: 'exp_1' }));
      await client().request({ method: 'PATCH', path: '/v1/expenses/exp_1', body: { amount: 5 } });
      expect(server.requests).toHaveLength(2);
      expect(new Set(keysOf()).size).toBe(1);
    });

    it('gives every logical operation its own key, and uses a caller-supplied key as is', async () => {
      server.otherwise(() => json(201, {}));
      const http = client();
      await http.request({ method: 'POST', path: '/v1/expenses', body: { n: 1 } });
      await http.request({ method: 'POST', path: '/v1/expenses', body: { n: 1 } });
      await http.request({
        method: 'POST',
        path: '/v1/expenses',
        body: { n: 1 },
        idempotencyKey: 'my-own-key-1',
      });
      const [a, b, c] = keysOf();
      expect(a).not.toBe(b);
      expect(c).toBe('my-own-key-1');
      // Reads carry no key.
      server.reset();
      server.otherwise(() => json(200, {}));
      await http.request({ method: 'GET', path: '/v1/groups' });
      expect(keysOf()).toEqual([undefined]);
    });

    it('keeps a caller-supplied key across the typed methods’ retries', async () => {
      server.reply(problem(503, 'unavailable'), { action: 'destroy' }, json(201, { id: 'exp_9' }));
      const tally = new TallyClient({ baseUrl: server.url, sleep: async () => {}, random: () => 0 });
      const expense = await tally.expenses.create(
        {
          groupId: 'grp_1',
          description: 'x',
          amount: 1,
          paidBy: 'usr_1',
          split: { type: 'equal', between: ['usr_1'] },
        },
        { idempotencyKey: 'offline-op-42' },
      );
      expect(expense.id).toBe('exp_9');
      expect(keysOf()).toEqual(['offline-op-42', 'offline-op-42', 'offline-op-42']);
    });
  });

  describe('what is not retried', () => {
    it('never retries a POST without a key: 503, network error, timeout', async () => {
      const http = client({ retry: { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS } });
      server.reply(problem(503, 'unavailable', { 'Retry-After': '1' }));
      const unavailable = await rejection(
        http.request({ method: 'POST', path: '/v1/things', body: {}, idempotencyKey: false }),
      );
      expect(unavailable).toBeInstanceOf(UnavailableError);
      expect((unavailable as UnavailableError).retryAfterMs).toBe(1000);

      server.reply({ action: 'destroy' });
      expect(
        await rejection(
          http.request({ method: 'POST', path: '/v1/things', body: {}, idempotencyKey: false }),
        ),
      ).toBeInstanceOf(NetworkError);

      server.reply({ action: 'hang' });
      expect(
        await rejection(
          http.request({ method: 'POST', path: '/v1/things', body: {}, idempotencyKey: false }),
        ),
      ).toBeInstanceOf(TimeoutError);

      expect(server.requests).toHaveLength(3);
      expect(keysOf()).toEqual([undefined, undefined, undefined]);
      expect(sleeps).toEqual([]);
    });

    it('never retries login or register (auth POSTs carry no key; refresh: see auth.test.ts)', async () => {
      const tally = new TallyClient({ baseUrl: server.url, sleep: async (ms) => void sleeps.push(ms) });
      server.reply(problem(503, 'unavailable'));
      expect(await rejection(tally.auth.login({ email: 'a@example.com', password: 'x' }))).toBeInstanceOf(
        UnavailableError,
      );
      server.reply({ action: 'destroy' });
      expect(
        await rejection(
          tally.auth.register({ email: 'a@example.com', name: 'A', password: 'sesame-open-sesame' }),
        ),
      ).toBeInstanceOf(NetworkError);
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/auth/login', '/v1/auth/register']);
      expect(keysOf()).toEqual([undefined, undefined]);
      expect(sleeps).toEqual([]);
    });

    it('does not retry other 4xx: each becomes the typed error of its code, after one request', async () => {
      const http = client();
      const cases: [ReturnType<typeof problem>, new (...args: never[]) => ProblemError][] = [
        [problem(404, 'not_found'), NotFoundError],
        [problem(409, 'idempotency_key_reused'), IdempotencyKeyReusedError],
        [problem(412, 'precondition_failed'), PreconditionFailedError],
        [problem(422, 'validation_failed'), ValidationFailedError],
      ];
      for (const [step, Class] of cases) {
        server.reset();
        server.reply(step);
        const error = await rejection(http.request({ method: 'PUT', path: '/v1/expenses/exp_1', body: {} }));
        expect(error).toBeInstanceOf(Class);
        expect(error).toBeInstanceOf(ProblemError);
        expect(error).toBeInstanceOf(TallyError);
        expect((error as ProblemError).problem.requestId).toBe('req-scripted');
        expect(server.requests).toHaveLength(1);
      }
      expect(sleeps).toEqual([]);
    });
  });

  describe('the attempt cap', () => {
    it('stops after 5 attempts by default with RetryExhaustedError carrying the last problem', async () => {
      server.otherwise(() => problem(503, 'unavailable'));
      const error = (await rejection(
        client().request({ method: 'POST', path: '/v1/expenses', body: {}, idempotencyKey: 'k-cap' }),
      )) as RetryExhaustedError;
      expect(error).toBeInstanceOf(RetryExhaustedError);
      expect(error.attempts).toBe(5);
      expect(error.lastProblem?.code).toBe('unavailable');
      expect(error.lastProblem?.status).toBe(503);
      expect(error.lastError).toBeInstanceOf(UnavailableError);
      expect(error.idempotencyKey).toBe('k-cap');
      expect(server.requests).toHaveLength(5);
      expect(sleeps).toHaveLength(4);
    });

    it('takes the cap from the client and per call', async () => {
      server.otherwise(() => ({ action: 'destroy' }));
      const error = (await rejection(
        client({ retry: { maxAttempts: 3 } }).request({ method: 'GET', path: '/v1/groups' }),
      )) as RetryExhaustedError;
      expect(error.attempts).toBe(3);
      expect(error.lastProblem).toBeUndefined();
      expect(error.lastError).toBeInstanceOf(NetworkError);
      expect(server.requests).toHaveLength(3);

      server.reset();
      server.otherwise(() => problem(500, 'internal_error'));
      const once = await rejection(
        client().request({ method: 'GET', path: '/v1/groups', retry: { maxAttempts: 1 } }),
      );
      expect((once as RetryExhaustedError).attempts).toBe(1);
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('AbortSignal', () => {
    it('rejects without sending when the signal has already fired', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await rejection(
        client().request({ method: 'GET', path: '/v1/groups', signal: controller.signal }),
      );
      expect(error).toBeInstanceOf(RequestAbortedError);
      expect(server.requests).toHaveLength(0);
    });

    it('aborts an attempt in flight', async () => {
      server.otherwise(() => ({ action: 'hang' }));
      const controller = new AbortController();
      const pending = rejection(
        client().request({ method: 'GET', path: '/v1/groups', signal: controller.signal }),
      );
      await until(() => server.requests.length > 0);
      controller.abort(new Error('user left the screen'));
      const error = (await pending) as RequestAbortedError;
      expect(error).toBeInstanceOf(RequestAbortedError);
      expect((error.cause as Error).message).toBe('user left the screen');
      expect(server.requests).toHaveLength(1);
    });

    it('aborts the wait between attempts, and sends nothing more', async () => {
      server.otherwise(() => problem(503, 'unavailable'));
      const controller = new AbortController();
      // The real sleep, with a long backoff: only the abort can end the wait.
      const http = new HttpClient({
        baseUrl: server.url,
        retry: { baseDelayMs: 60_000 },
        random: () => 0.99,
      });
      const pending = rejection(
        http.request({
          method: 'GET',
          path: '/v1/groups',
          signal: controller.signal,
          retry: { baseDelayMs: 60_000 },
        }),
      );
      await until(() => server.requests.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      expect(await pending).toBeInstanceOf(RequestAbortedError);
      expect(server.requests).toHaveLength(1);
    });
  });
});

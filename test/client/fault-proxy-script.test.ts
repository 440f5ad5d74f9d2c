/**
 * The fault proxy itself (fault-proxy.ts), against a scripted server: its faults are seeded and
 * capped per Idempotency-Key, so a client with more attempts than the cap always gets through,
 * and `slow` holds an attempt until the client's own timeout ends it, however loaded the machine.
 */
import { HttpClient, type RetryInfo } from '../../packages/client/src';
import { type FaultAction, FaultProxy } from './fault-proxy';
import { json, ScriptedServer } from './scripted-server';

/** Faults the client sees at once (no timeout to wait for). */
const QUICK_FAULTS = { forward: 0, delay: 0, slow: 0, 'reset-before': 1, 'drop-response': 1 };
/** Far longer than a local answer takes, however loaded the machine: only a `slow` hold reaches it. */
const ATTEMPT_TIMEOUT_MS = 10_000;

describe('the fault proxy of the client tests', () => {
  let server: ScriptedServer;
  const proxies: FaultProxy[] = [];
  const start = async (options: Omit<Parameters<typeof FaultProxy.start>[0], 'target'>) => {
    const proxy = await FaultProxy.start({ target: server.url, ...options });
    proxies.push(proxy);
    return proxy;
  };
  const clientOf = (
    proxy: FaultProxy,
    maxAttempts: number,
    retries: RetryInfo[] = [],
    attemptTimeoutMs = ATTEMPT_TIMEOUT_MS,
  ) =>
    new HttpClient({
      baseUrl: proxy.url,
      // No waiting between attempts; the attempt timeout is what ends a `slow` hold.
      sleep: async () => {},
      retry: { maxAttempts, attemptTimeoutMs },
      onRetry: (info) => retries.push(info),
    });
  const post = (client: HttpClient, i: number) =>
    client.request<{ ok: true }>({ method: 'POST', path: '/things', body: { i } });

  beforeAll(async () => {
    server = await ScriptedServer.start();
    server.otherwise(() => json(201, { ok: true }));
  });
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  afterAll(async () => {
    await server.close();
  });

  it('faults no key more than maxFaultsPerKey times: every write gets through on the attempt after', async () => {
    const proxy = await start({ weights: QUICK_FAULTS, maxFaultsPerKey: 3, seed: 7 });
    const retries: RetryInfo[] = [];
    const client = clientOf(proxy, 4, retries);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => post(client, i)));
    await proxy.drain();

    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    // Every key: three faults (of both kinds, across the keys), then the fourth attempt forwarded.
    expect([...proxy.faultsPerKey().values()]).toEqual(Array(12).fill(3));
    expect(proxy.counts.forward).toBe(12);
    expect(proxy.counts['reset-before']).toBeGreaterThan(0);
    expect(proxy.counts['drop-response']).toBeGreaterThan(0);
    expect(proxy.received).toBe(48);
    expect(retries).toHaveLength(36);
    expect(new Set(retries.map((r) => r.error.name))).toEqual(new Set(['NetworkError']));
  });

  it('without a cap, faults a key for as long as the weights say (the proxy of a test that wants that)', async () => {
    const proxy = await start({ weights: QUICK_FAULTS });
    await expect(post(clientOf(proxy, 5), 0)).rejects.toMatchObject({ name: 'RetryExhaustedError' });
    expect(proxy.received).toBe(5);
    expect(proxy.counts.forward).toBe(0);
  });

  it('holds a `slow` attempt until the client gives up, then the server executes it anyway', async () => {
    const proxy = await start({
      weights: { forward: 0, delay: 0, slow: 1, 'reset-before': 0, 'drop-response': 0 },
      maxFaultsPerKey: 1,
    });
    const retries: RetryInfo[] = [];
    const answer = await post(clientOf(proxy, 2, retries, 500), 1);
    await proxy.drain();
    expect(answer.status).toBe(201);
    expect(retries.map((r) => r.error.name)).toEqual(['TimeoutError']);
    expect(proxy.counts).toMatchObject({ slow: 1, forward: 1 });
    // The held attempt reached the server after the client had timed out, and so did the retry.
    expect(proxy.forwarded).toBe(2);
  });

  it('draws the same faults for the same seed, whatever order the keys arrive in', async () => {
    const weights = { forward: 45, delay: 20, slow: 0, 'reset-before': 20, 'drop-response': 15 };
    const run = async (seed: number) => {
      const proxy = await start({ weights, maxFaultsPerKey: 2, delayMs: [1, 5], seed });
      const client = clientOf(proxy, 3);
      await Promise.all(Array.from({ length: 30 }, (_, i) => post(client, i)));
      await proxy.drain();
      return { counts: { ...proxy.counts }, faults: [...proxy.faultsPerKey().values()].sort() };
    };
    const first = await run(11);
    expect(await run(11)).toEqual(first);
    // Another seed, another script (the check above is not vacuous).
    const other = await run(12);
    expect(other.counts).not.toEqual(first.counts);
    const total = (counts: Record<FaultAction, number>) => Object.values(counts).reduce((a, b) => a + b);
    expect(total(first.counts)).toBeGreaterThan(30);
  });
});

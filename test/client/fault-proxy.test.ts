import { MemoryTokenStore, type RetryInfo, TallyClient } from '../../packages/client/src';
import { redisUrl } from '../support/test-database';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { FaultProxy } from './fault-proxy';

const OPERATIONS = 200;
const EXPENSE_AMOUNT = 200;
const SETTLEMENT_AMOUNT = 50;
/** The client's attempts per operation, and the most of them the proxy may fault. */
const MAX_ATTEMPTS = 12;
const MAX_FAULTS = 3;

/**
 * Exactly-once money writes through a hostile network: a proxy that delays requests, resets
 * connections before the server sees them, holds requests past the client's timeout (the server
 * still executes them later) and drops responses after the server has committed. Its faults are
 * seeded and at most MAX_FAULTS per operation, so the run cannot exhaust the client's retries by
 * chance; the client's retries, not luck, carry every operation through. 200 expenses and
 * settlements through it end in exactly 200 rows — no duplicates, none missing — and the balances and
 * the event log agree.
 */
describe('money writes through a fault-injecting proxy', () => {
  let t: TestServer;
  let proxy: FaultProxy;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl(), RATE_LIMIT_PER_MINUTE: '1000000' } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
    proxy = await FaultProxy.start({
      target: t.url,
      weights: { forward: 45, delay: 20, slow: 8, 'reset-before': 12, 'drop-response': 15 },
      delayMs: [5, 100],
      // Far fewer than the client's 12 attempts: no operation can run out of them because of the
      // proxy, whatever the seed; the attempts left over absorb a slow answer of a loaded machine.
      maxFaultsPerKey: MAX_FAULTS,
      seed: 20261125,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.stop();
  });

  it(`ends ${OPERATIONS} operations in exactly ${OPERATIONS} expenses and settlements`, async () => {
    const retries: RetryInfo[] = [];
    const clientFor = (user: TestUser) =>
      new TallyClient({
        baseUrl: proxy.url,
        tokenStore: new MemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }),
        // Small backoff so the run is quick. The proxy's `slow` holds an attempt until this timeout
        // ends it; a forwarded attempt has all of it, far more than a write takes even on a loaded machine.
        retry: { baseDelayMs: 10, maxDelayMs: 200, attemptTimeoutMs: 1500, maxAttempts: MAX_ATTEMPTS },
        onRetry: (info) => retries.push(info),
      });
    const adaClient = clientFor(ada);
    const bobClient = clientFor(bob);

    const expenseIds: string[] = [];
    const settlementIds: string[] = [];
    const failures: unknown[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < OPERATIONS; i = next++) {
        try {
          if (i % 5 === 4) {
            const settlement = await bobClient.settlements.create({
              groupId,
              fromUserId: bob.id,
              toUserId: ada.id,
              amount: SETTLEMENT_AMOUNT,
              note: `op-${i}`,
            });
            settlementIds.push(settlement.id);
          } else {
            const expense = await adaClient.expenses.create({
              groupId,
              description: `op-${i}`,
              amount: EXPENSE_AMOUNT,
              paidBy: ada.id,
              split: { type: 'equal', between: [ada.id, bob.id] },
            });
            expenseIds.push(expense.id);
          }
        } catch (error) {
          failures.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // Requests the proxy still holds (`slow`) reach the server now; they must be replays, not writes.
    await proxy.drain();

    expect(failures).toEqual([]);
    const expenses = OPERATIONS - OPERATIONS / 5;
    const settlements = OPERATIONS / 5;
    expect(expenseIds).toHaveLength(expenses);
    expect(settlementIds).toHaveLength(settlements);
    expect(new Set(expenseIds).size).toBe(expenses);
    expect(new Set(settlementIds).size).toBe(settlements);

    // The database: exactly one row per operation.
    const knex = t.db!.knex;
    const expenseRows = await knex('expenses').where({ group_id: groupId }).select('id', 'description');
    const settlementRows = await knex('settlements').where({ group_id: groupId }).select('id', 'note');
    expect(expenseRows).toHaveLength(expenses);
    expect(settlementRows).toHaveLength(settlements);
    expect(new Set(expenseRows.map((r) => r.description)).size).toBe(expenses);
    expect(new Set(settlementRows.map((r) => r.note)).size).toBe(settlements);
    expect(new Set(expenseRows.map((r) => r.id))).toEqual(new Set(expenseIds));
    expect(new Set(settlementRows.map((r) => r.id))).toEqual(new Set(settlementIds));

    // The balances and the event log saw each write once: member.added ×2, then one event per write.
    const direct = new TallyClient({
      baseUrl: t.url,
      tokenStore: new MemoryTokenStore({ accessToken: ada.accessToken, refreshToken: ada.refreshToken }),
    });
    const balances = await direct.groups.balances(groupId);
    expect(balances.asOfSeq).toBe(2 + OPERATIONS);
    const bobNet = -(expenses * EXPENSE_AMOUNT) / 2 + settlements * SETTLEMENT_AMOUNT;
    expect(balances.currencies[0]?.members).toEqual(
      expect.arrayContaining([
        { userId: ada.id, net: -bobNet },
        { userId: bob.id, net: bobNet },
      ]),
    );

    // The faults really happened, and the client really retried through them; no key had more than
    // MAX_FAULTS of them.
    for (const action of ['delay', 'slow', 'reset-before', 'drop-response'] as const) {
      expect(proxy.counts[action]).toBeGreaterThan(5);
    }
    expect(Math.max(...proxy.faultsPerKey().values())).toBeLessThanOrEqual(MAX_FAULTS);
    expect(retries.length).toBeGreaterThan(OPERATIONS / 5);
    const kinds = new Set(retries.map((r) => r.error.name));
    expect([...kinds]).toEqual(expect.arrayContaining(['NetworkError', 'TimeoutError']));
    // One key per operation: every attempt of an operation carried its key, no two operations shared one.
    const bodiesByKey = new Map<string, Set<string>>();
    for (const entry of proxy.log) {
      expect(entry.key).toEqual(expect.any(String));
      const bodies = bodiesByKey.get(entry.key as string) ?? new Set();
      bodies.add(`${entry.method} ${entry.path} ${entry.body}`);
      bodiesByKey.set(entry.key as string, bodies);
    }
    expect(bodiesByKey.size).toBe(OPERATIONS);
    for (const bodies of bodiesByKey.values()) expect(bodies.size).toBe(1);
    // The server answered more requests than there were operations: the difference was replayed.
    expect(proxy.forwarded).toBeGreaterThan(OPERATIONS);
    process.stdout.write(
      `fault proxy: ${proxy.received} requests, ${JSON.stringify(proxy.counts)}, ` +
        `${proxy.forwarded} answered by the server, ${retries.length} client retries\n`,
    );
  });
});

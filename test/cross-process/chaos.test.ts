import { runChaos } from '../../infra/loadtest/chaos';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';

/**
 * The short chaos run of the test suite (`npm run chaos` is the long one): the SDK-based load test
 * against a fleet behind HAProxy while processes are SIGKILLed and the fleet is rolled.
 */
describe('chaos: load while API and gateway processes are killed and the fleet rolls', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('keeps 0 duplicate effects, 0 lost acknowledged writes, and every event in order for every client', async () => {
    const result = await runChaos({
      databaseUrl: db.url,
      redisUrl: redisUrl(),
      api: 2,
      gateways: 2,
      durationSeconds: 14,
      killEverySeconds: 3,
      groups: 3,
    });
    expect(result.kills.length).toBeGreaterThanOrEqual(2);
    expect(result.rollingRestarts).toBe(1);
    expect(result.operations['create expense']?.count).toBeGreaterThan(20);
    expect(result.duplicatesCreated).toBe(0);
    expect(result.lostWrites).toBe(0);
    expect(result.replayMismatches).toBe(0);
    expect(result.outOfOrderClients).toBe(0);
    expect(result.eventsDelivered).toBe(result.eventsExpected);
    expect(result.eventsExpected).toBeGreaterThan(0);
    expect(result.failures).toEqual([]);
  }, 240_000);
});

import { runChaos } from '../../infra/loadtest/chaos';

type ChaosResult = Awaited<ReturnType<typeof runChaos>>;

/** The promise under every disruption: no write twice, none acknowledged and lost, every event once and in order. */
function expectNothingLostDoubledOrLate(result: ChaosResult): void {
  expect(result.duplicatesCreated).toBe(0);
  expect(result.lostWrites).toBe(0);
  expect(result.replayMismatches).toBe(0);
  expect(result.eventsLost).toBe(0);
  expect(result.eventsOutOfOrder).toBe(0);
  expect(result.outOfOrderClients).toBe(0);
  expect(result.eventsExpected).toBeGreaterThan(0);
  expect(result.eventsDelivered).toBe(result.eventsExpected);
  expect(result.failures).toEqual([]);
}

/**
 * The short chaos run of the test suite (`npm run chaos` is the long one): the SDK-based load test
 * against a fleet behind HAProxy, on a throwaway Redis and a throwaway primary with a synchronous
 * standby, while processes are SIGKILLed, the fleet is rolled, Redis is killed (and comes back
 * empty), PostgreSQL is restarted, and the primary is SIGKILLed and the standby promoted, there and
 * back (the old primary rejoins with pg_rewind). One run takes every kind of disruption: the load
 * lasts until each has happened (`runChaos`'s keepGoingUntil), so a second run without the
 * failovers would only repeat the first part of this one.
 */
describe('chaos: load while processes die, the fleet rolls, Redis restarts and PostgreSQL restarts and fails over', () => {
  it('keeps 0 duplicate effects, 0 lost acknowledged writes, and every event in order for every client', async () => {
    const result = await runChaos({
      api: 2,
      gateways: 2,
      // A floor: the load lasts until every kind of disruption has happened (the opening five and
      // two failovers), each after the fleet is healthy again and a second of load since the last.
      durationSeconds: 8,
      killEverySeconds: 1,
      groups: 3,
      databaseFailover: true,
    });
    expect(result.kills.length).toBeGreaterThanOrEqual(2);
    expect(result.rollingRestarts).toBeGreaterThanOrEqual(1);
    expect(result.redisKills).toBeGreaterThanOrEqual(1);
    expect(result.postgresRestarts).toBeGreaterThanOrEqual(1);
    expect(result.postgresFailovers).toBeGreaterThanOrEqual(2);
    expect(result.operations['create expense']?.count).toBeGreaterThan(20);
    expectNothingLostDoubledOrLate(result);
  }, 300_000);
});

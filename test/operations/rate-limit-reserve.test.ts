/**
 * The fleet's rate limit reserves budget ahead instead of asking Redis on every request (issue #10:
 * a Redis round trip per request was a third of a GET's cost). Two limiters on one real Redis stand
 * for two instances; what must hold is that no more than the limit is ever allowed, that a busy
 * user costs few round trips, and that a Redis outage falls back to per-instance counting.
 */
import { randomUUID } from 'node:crypto';
import { createRateLimits } from '@tally/api';
import { Redis } from 'ioredis';
import { ensureRedis, type RunningService } from '../support/services';

type Budget = ReturnType<typeof createRateLimits>['perUser'];

type Outcome = { allowed: boolean; status?: number; headers: Record<string, string> };

/** Spends one point of the per-user budget of `userId`, as the pipeline's per-user step does. */
async function check(budget: Budget, userId: string): Promise<Outcome> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
  };
  try {
    await budget.spend(userId, res);
  } catch (error) {
    const e = error as { status: number; headers: Record<string, string> };
    return { allowed: false, status: e.status, headers: e.headers };
  }
  return { allowed: true, headers };
}

type Counted = Redis & { tallyRateReserve: (...args: unknown[]) => Promise<unknown> };

/** Counts the reservations (Redis round trips) a limiter makes on `redis`. */
function countReservations(redis: Counted): { count: number } {
  const counter = { count: 0 };
  const original = redis.tallyRateReserve.bind(redis);
  redis.tallyRateReserve = (...args: unknown[]) => {
    counter.count++;
    return original(...args);
  };
  return counter;
}

describe('rate limits reserved ahead from Redis', () => {
  let service: RunningService;
  const clients: Redis[] = [];
  const client = () => {
    const redis = new Redis(service.url, { lazyConnect: false });
    clients.push(redis);
    return redis as Counted;
  };

  beforeAll(async () => {
    service = await ensureRedis();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => {})));
  });

  it('never allows more than the limit across instances, and refuses once it is spent', async () => {
    const limit = 40;
    const a = createRateLimits({ redis: client(), pointsPerMinute: limit }).perUser;
    const b = createRateLimits({ redis: client(), pointsPerMinute: limit }).perUser;
    const userId = `usr_${randomUUID()}`;
    let allowed = 0;
    const refusedBy = new Set<string>();
    // Alternate between the instances, several requests at once, until both refuse.
    for (let round = 0; round < 100 && refusedBy.size < 2; round++) {
      const outcomes = await Promise.all(
        [a, b, a, b].map(async (m, i) => ({ who: i % 2 === 0 ? 'a' : 'b', ...(await check(m, userId)) })),
      );
      for (const o of outcomes) {
        if (o.allowed) allowed++;
        else {
          expect(o.status).toBe(429);
          expect(Number(o.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
          refusedBy.add(o.who);
        }
      }
    }
    expect(refusedBy).toEqual(new Set(['a', 'b']));
    expect(allowed).toBe(limit);
  });

  it('spends one reservation on many requests of a busy user, and reports what is left', async () => {
    const redis = client();
    const limit = 100_000;
    const perUser = createRateLimits({ redis, pointsPerMinute: limit }).perUser;
    const reservations = countReservations(redis);
    const userId = `usr_${randomUUID()}`;
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 20; i++) {
      outcomes.push(...(await Promise.all(Array.from({ length: 10 }, () => check(perUser, userId)))));
    }
    expect(outcomes.every((o) => o.allowed)).toBe(true);
    // 200 requests at up to 64 points a reservation: 4 round trips, not 200.
    expect(reservations.count).toBeLessThanOrEqual(4);
    const last = outcomes.at(-1) as Outcome;
    expect(last.headers['RateLimit-Limit']).toBe(String(limit));
    // This instance is the only one spending: what it reports left is exact.
    expect(last.headers['RateLimit-Remaining']).toBe(String(limit - 200));
    expect(Number(last.headers['RateLimit-Reset'])).toBeGreaterThanOrEqual(1);
    expect(Number(last.headers['RateLimit-Reset'])).toBeLessThanOrEqual(60);
  });

  it('counts per instance while Redis cannot be reached', async () => {
    // Nothing listens on port 1: every reservation fails at once.
    const down = new Redis({
      port: 1,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    clients.push(down);
    const perUser = createRateLimits({ redis: down, pointsPerMinute: 3 }).perUser;
    const userId = `usr_${randomUUID()}`;
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 4; i++) outcomes.push(await check(perUser, userId));
    expect(outcomes.map((o) => o.allowed)).toEqual([true, true, true, false]);
    expect(outcomes[3]?.status).toBe(429);
    down.disconnect();
  });
});

import { Redis } from 'ioredis';
import { ensureRedis, type RunningService } from '../support/services';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { TestSocket } from './ws-client';

/**
 * A floor: the churn lasts at least this, and until enough happened for the run to mean something
 * (what it checks is structural: nothing left behind, every group's events in order). 5 s are
 * hundreds of sessions; a longer soak is a bench's.
 */
const SOAK_MS = 5_000;
const CLIENTS = 12;

const metricValue = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1]);

/**
 * Clients connect, subscribe and drop over and over (some terminate right after sending subscribe,
 * while it awaits the database) as writes go through. Afterwards nothing may be left: no connection,
 * subscription, feed or presence entry. A throwaway Redis holds only this test's presence keys.
 */
describe('connection churn', () => {
  let redisServer: RunningService;
  let redis: Redis;
  let t: TestServer;

  beforeAll(async () => {
    redisServer = await ensureRedis({ ephemeral: true });
    redis = new Redis(redisServer.url);
    t = await startTestServer({ env: { REDIS_URL: redisServer.url, WS_HEARTBEAT_MS: '500' } });
  });
  afterAll(async () => {
    await t.stop();
    await redis.quit();
    await redisServer.stop();
  });

  it('leaves no connection, subscription, feed or presence entry behind, and delivers in order meanwhile', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 4; i++) users.push(await t.register(`Churn${i}`));
    const [owner, ...others] = users as [TestUser, ...TestUser[]];
    const groups = [await t.createGroup(owner, others), await t.createGroup(owner, others)];
    const deadline = Date.now() + SOAK_MS;
    let writes = 0;
    let sessions = 0;
    const disorder: string[] = [];
    /** SOAK_MS long, and however slow the machine, until enough happened for the run to mean something. */
    const soaking = () => Date.now() < deadline || writes <= 10 || sessions <= CLIENTS * 4;

    const writer = async () => {
      while (soaking()) {
        const groupId = groups[writes % groups.length] as string;
        await t.request
          .post('/v1/expenses')
          .set(owner.auth)
          .set('Idempotency-Key', newKey())
          .send({
            groupId,
            description: 'Churn',
            amount: 100,
            paidBy: owner.id,
            split: { type: 'equal', between: [owner.id] },
          })
          .expect(201);
        writes++;
      }
    };

    const session = async (client: number, round: number) => {
      const user = users[client % users.length] as TestUser;
      const socket = await TestSocket.open(t.url, user.accessToken);
      await socket.next((m) => m.type === 'welcome');
      const groupId = groups[(client + round) % groups.length] as string;
      const afterSeq = round % 3 === 0 ? { afterSeq: 0 } : {};
      socket.send({ type: 'subscribe', id: 's', groupId, ...afterSeq });
      switch ((client + round) % 4) {
        case 0: // gone while the subscribe awaits the database
          socket.ws.terminate();
          break;
        case 1: // a short live session, then a clean close
          await socket.next((m) => m.type === 'subscribed');
          await socket.next((m) => m.type === 'event', 2000).catch(() => undefined);
          socket.close();
          break;
        case 2: // two groups, then the connection drops
          socket.send({ type: 'subscribe', id: 't', groupId: groups[(client + round + 1) % groups.length] });
          await socket.next((m) => m.type === 'subscribed' && m['id'] === 't');
          socket.ws.terminate();
          break;
        default: // unsubscribe, then close
          await socket.next((m) => m.type === 'subscribed');
          socket.send({ type: 'unsubscribe', id: 'u', groupId });
          await socket.next((m) => m.type === 'unsubscribed');
          socket.close();
      }
      await socket.closed;
      for (const g of groups) {
        const seqs = socket.seqs(g);
        if (seqs.some((seq, i) => i > 0 && seq !== (seqs[i - 1] as number) + 1))
          disorder.push(`${g}: ${seqs}`);
      }
      sessions++;
    };

    const client = async (n: number) => {
      for (let round = 0; soaking(); round++) await session(n, round);
    };

    await Promise.all([writer(), ...Array.from({ length: CLIENTS }, (_, n) => client(n))]);
    expect(disorder).toEqual([]);

    await until(async () => {
      const text = (await t.request.get('/metrics')).text;
      expect({
        connections: metricValue(text, 'ws_connections'),
        subscriptions: metricValue(text, 'ws_subscriptions'),
        feeds: metricValue(text, 'ws_feeds'),
        presenceKeys: await redis.keys('presence:*'),
      }).toEqual({ connections: 0, subscriptions: 0, feeds: 0, presenceKeys: [] });
    }, 'nothing left behind');
  });
});

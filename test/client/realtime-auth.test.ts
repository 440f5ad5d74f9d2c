import { createAccessTokens } from '@tally/http-kit';
import WebSocket from 'ws';
import { type GroupEvent, MemoryTokenStore, RealtimeClient, TallyClient } from '../../packages/client/src';
import { startTestServer, TEST_JWT_SECRET, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

/** Access tokens live four seconds here: a connection outlives several of them. */
describe('realtime client with short-lived access tokens, against the real server', () => {
  let t: TestServer;
  let ada: TestUser;
  let groupId: string;
  const clients: RealtimeClient[] = [];

  beforeAll(async () => {
    t = await startTestServer({ env: { ACCESS_TOKEN_TTL_SECONDS: '4' } });
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
  });
  afterAll(async () => {
    for (const rt of clients) rt.close();
    await t.stop();
  });

  const tally = () =>
    new TallyClient({
      baseUrl: t.url,
      tokenStore: new MemoryTokenStore({ accessToken: ada.accessToken, refreshToken: ada.refreshToken }),
    });
  const addExpense = (client: TallyClient, amount: number) =>
    client.expenses.create({
      groupId,
      description: 'Chai',
      amount,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    });

  it('keeps one connection across several token lifetimes by sending auth with refreshed tokens', async () => {
    const client = tally();
    const rt = client.realtime({ WebSocket });
    clients.push(rt);
    const events: GroupEvent[] = [];
    rt.subscribe(groupId, { afterSeq: 0, onEvent: (e) => events.push(e) });
    await until(() => events.length === 1);
    await until(() => rt.stats().reauthenticated >= 2);
    await addExpense(client, 100);
    await until(() => events.length === 2);
    expect(rt.stats().connections).toBe(1);
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('reconnects with a fresh token after the server closes at expiry (4401), and resumes in order', async () => {
    const tokens = createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 2 });
    const asked: { rejectedToken?: string }[] = [];
    let current = await tokens.sign(ada.id);
    let offline = true;
    const rt = new RealtimeClient({
      url: t.url,
      WebSocket,
      reconnectBaseDelayMs: 10,
      // A provider that cannot refresh ahead of time (offline), so the token runs out on the socket.
      getAccessToken: async ({ rejectedToken }) => {
        asked.push({ rejectedToken });
        if (rejectedToken !== undefined) {
          if (offline) throw new Error('offline');
          current = await tokens.sign(ada.id);
        }
        return current;
      },
    });
    clients.push(rt);
    const seqs: number[] = [];
    rt.subscribe(groupId, { afterSeq: 0, onEvent: (e) => seqs.push(e.seq) });
    await until(() => seqs.length === 2);
    await until(() => asked.some((a) => a.rejectedToken !== undefined)); // the renewal failed
    offline = false;
    await until(() => rt.stats().connections === 2);
    await addExpense(tally(), 200);
    await until(() => seqs.length === 3);
    expect(seqs).toEqual([1, 2, 3]);
  });
});

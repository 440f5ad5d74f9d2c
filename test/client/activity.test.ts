import type { ActivityItem, ActivityNotice, TallyClient } from '../../packages/client/src';
import { redisUrl } from '../support/test-database';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { PASSWORD, quickClient } from './sdk-setup';

/** Activity through the SDK (API.md §8a): `tally.activity` and `RealtimeClient.followActivity`. */
describe('activity through the SDK', () => {
  let t: TestServer;
  let ada: TallyClient;
  let bob: TallyClient;

  const newClient = () => quickClient(t.url);

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = newClient();
    bob = newClient();
    await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
    await bob.auth.register({ email: uniqueEmail('bob'), name: 'Bob', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists, pages through and marks read the feed, and hears new activity live', async () => {
    const me = await ada.auth.me();
    const friend = await bob.auth.me();
    const group = await bob.groups.create({ name: 'Flat' });
    await bob.groups.addMember(group.id, { userId: me.id });
    const notices: ActivityNotice[] = [];
    const realtime = ada.realtime();
    realtime.on('activity', (notice) => notices.push(notice));
    realtime.followActivity();
    await until(() => realtime.state === 'open');
    // The SDK sends activity.subscribe on the welcome; its answer is not surfaced, so write until
    // the first notice shows the gateway follows the group (at most a few writes).
    let written = 0;
    const spend = () =>
      bob.expenses.create({
        groupId: group.id,
        description: `Rent ${++written}`,
        amount: 1000,
        paidBy: friend.id,
        split: { type: 'equal', between: [friend.id, me.id] },
      });
    while (notices.length === 0 && written < 20) {
      await spend();
      await until(() => notices.length > 0, { timeoutMs: 500 }).catch(() => {});
    }
    const rent = await spend();
    // A notice of a write before may still be on its way (the loop above waits 500 ms for each):
    // wait for the newest event's own notice, not for any further one.
    let top = (await ada.activity.list({ limit: 1 })).data[0]!;
    await until(async () => {
      top = (await ada.activity.list({ limit: 1 })).data[0]!;
      expect(notices.at(-1)?.eventId).toBe(top.id);
    });
    expect(top).toEqual(expect.objectContaining({ groupName: 'Flat', type: 'expense.created' }));
    expect((top.data as unknown as { expense: { id: string } }).expense.id).toBe(rent.id);
    expect(notices.at(-1)).toEqual({
      groupId: group.id,
      eventId: top.id,
      seq: top.seq,
      eventType: 'expense.created',
    });

    const page = await ada.activity.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.data[0]!.id).toBe(top.id);
    expect(page.unread).toBe(written + 1);
    const all: ActivityItem[] = [];
    for await (const item of ada.activity.listAll({ limit: 1 })) all.push(item);
    expect(all.map((i) => i.type)).toEqual([...Array(written).fill('expense.created'), 'member.added']);
    expect(await ada.activity.markRead(page.data[0]!.id)).toEqual({
      unread: 0,
      unreadCapped: false,
      readUpTo: page.data[0]!.id,
    });
    realtime.close();
  });
});

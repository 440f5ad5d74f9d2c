import { mergeTimeline, NotFoundError, type TallyClient } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** The history of a record (API.md §15) through the SDK, against a real server. */
describe('history through the SDK', () => {
  let t: TestServer;
  let ada: TallyClient;
  let eve: TallyClient;

  beforeAll(async () => {
    t = await startTestServer();
    ada = quickClient(t.url);
    eve = quickClient(t.url);
    await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
    await eve.auth.register({ email: uniqueEmail('eve'), name: 'Eve', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('walks every version of an expense, merges it with the comments, and hides it from others', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Trip' });
    const expense = await ada.expenses.create({
      groupId: group.id,
      description: 'Taxi',
      amount: 699,
      paidBy: me.id,
      split: { type: 'equal', between: [me.id] },
    });
    const target = { expenseId: expense.id };
    await ada.comments.create(target, 'was it 6.99?');
    await ada.expenses.patch(expense.id, { amount: 899 });
    const versions = [];
    for await (const v of ada.history.listAll(target, { limit: 1 })) versions.push(v);
    expect(versions.map((v) => [v.action, v.version, v.actorName])).toEqual([
      ['created', 1, 'Ada'],
      ['updated', 2, 'Ada'],
    ]);
    expect(versions[1]?.changes?.[0]).toEqual({ field: 'amount', from: 699, to: 899 });
    const page = await ada.history.list(target);
    expect(page.truncated).toBe(false);
    const comments = (await ada.comments.list(target)).data;
    expect(mergeTimeline(page.data, comments).map((e) => e.kind)).toEqual(['change', 'comment', 'change']);
    expect(await rejection(eve.history.list(target))).toBeInstanceOf(NotFoundError);
  });

  it('lists a settlement’s versions, without version numbers', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Flat' });
    const pat = await ada.groups.addMember(group.id, { name: 'Pat' });
    const patId = pat.userId;
    const settlement = await ada.settlements.create({
      groupId: group.id,
      fromUserId: patId,
      toUserId: me.id,
      amount: 300,
    });
    await ada.settlements.delete(settlement.id);
    const page = await ada.history.list({ settlementId: settlement.id });
    expect(page.data.map((v) => [v.action, v.version, v.etag])).toEqual([
      ['created', null, null],
      ['deleted', null, null],
    ]);
  });
});

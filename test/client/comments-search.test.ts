import { ForbiddenError, type TallyClient, ValidationFailedError } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** The expense search (API.md §5.1) and comments (§5.2) through the SDK, against a real server. */
describe('search and comments through the SDK', () => {
  let t: TestServer;
  let ada: TallyClient;
  let bob: TallyClient;

  const newClient = () => quickClient(t.url);

  beforeAll(async () => {
    t = await startTestServer();
    ada = newClient();
    bob = newClient();
    await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
    await bob.auth.register({ email: uniqueEmail('bob'), name: 'Bob', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists expenses with filters, every page followed, and comments on one of them', async () => {
    const me = await ada.auth.me();
    const friend = await bob.auth.me();
    const group = await ada.groups.create({ name: 'Lisbon' });
    await ada.groups.addMember(group.id, { userId: friend.id });
    const made = [];
    for (const [description, paidBy] of [
      ['Pastéis de nata', me.id],
      ['Taxi to Belém', friend.id],
      ['Café da manhã', friend.id],
      ['Pastel and café', me.id],
    ] as const) {
      made.push(
        await ada.expenses.create({
          groupId: group.id,
          description,
          amount: 800,
          paidBy,
          split: { type: 'equal', between: [me.id, friend.id] },
        }),
      );
    }
    const found = [];
    for await (const e of bob.expenses.listAll(group.id, { q: 'CAFE', paidBy: friend.id, limit: 1 }))
      found.push(e.id);
    expect(found).toEqual([made[2]?.id]);
    // By category id (the SDK once dropped this filter and answered every expense).
    await ada.expenses.patch(made[1]?.id as string, { categoryId: 'transport' });
    const transport = await bob.expenses.list(group.id, { categoryId: 'transport' });
    expect(transport.data.map((e) => e.id)).toEqual([made[1]?.id]);
    const pastel = await bob.expenses.list(group.id, { q: 'pastel', limit: 1 });
    expect(pastel.data.map((e) => e.id)).toEqual([made[3]?.id]);
    expect(
      await rejection(bob.expenses.list(group.id, { q: 'taxi', cursor: pastel.nextCursor as string })),
    ).toBeInstanceOf(ValidationFailedError);

    const target = { expenseId: made[1]?.id as string };
    const comment = await bob.comments.create(target, 'I paid with my card');
    await ada.comments.create(target, 'Thanks!');
    const texts = [];
    for await (const c of ada.comments.listAll(target, { limit: 1 })) texts.push(c.text);
    expect(texts).toEqual(['I paid with my card', 'Thanks!']);
    expect(await rejection(ada.comments.delete(comment.id))).toBeInstanceOf(ForbiddenError);
    await bob.comments.delete(comment.id);
    expect((await ada.comments.list(target)).data.map((c) => c.text)).toEqual(['Thanks!']);

    // Through the durable outbox, like the other keyed writes: sent once, with its own key.
    const entry = await ada.outbox.createComment({ groupId: group.id, ...target }, 'Queued while offline');
    expect(entry.operation).toEqual({
      type: 'comment.create',
      target: 'expense',
      targetId: target.expenseId,
      text: 'Queued while offline',
    });
    await ada.outbox.whenSettled(entry.id);
    const after = (await ada.comments.list(target)).data;
    expect(after.map((c) => c.text)).toEqual(['Thanks!', 'Queued while offline']);
    const removal = await ada.outbox.deleteComment({ id: after[1]?.id as string, groupId: group.id });
    await ada.outbox.whenSettled(removal.id);
    expect((await ada.comments.list(target)).data.map((c) => c.text)).toEqual(['Thanks!']);
  });
});

import {
  type GroupEvent,
  MemberClaimedError,
  NotFoundError,
  type TallyClient,
  ValidationFailedError,
} from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** `tally.groups.addMember({name})` and `tally.invites` against the real server (API.md §3.1–§3.3). */
describe('TallyClient: pending members, invites and claims', () => {
  let t: TestServer;
  let ada: TallyClient;
  let adaId: string;

  const newClient = () => quickClient(t.url);
  const registered = async (name: string, email = uniqueEmail(name)) => {
    const client = newClient();
    const session = await client.auth.register({ email, name, password: PASSWORD });
    return { client, id: session.user.id };
  };

  beforeAll(async () => {
    t = await startTestServer();
    ({ client: ada, id: adaId } = await registered('Ada'));
  });
  afterAll(async () => {
    await t.stop();
  });

  it('adds a pending member who pays and owes, and hands their place to an account through an invite', async () => {
    const group = await ada.groups.create({ name: 'Goa' });
    const carol = await ada.groups.addMember(group.id, { name: 'Carol' });
    expect(carol).toMatchObject({ name: 'Carol', status: 'pending' });
    await ada.expenses.create({
      groupId: group.id,
      description: 'Dinner',
      amount: 1000,
      paidBy: carol.userId,
      split: { type: 'equal', between: [adaId, carol.userId] },
    });

    const invite = await ada.invites.create(group.id, { expiresInDays: 1 });
    expect(invite.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await ada.invites.list(group.id)).map((i) => i.id)).toEqual([invite.id]);

    const { client: cara, id: caraId } = await registered('Cara');
    const preview = await cara.invites.preview(invite.code);
    expect(preview).toMatchObject({ groupId: group.id, groupName: 'Goa', memberCount: 2, isMember: false });
    expect(preview.pendingMembers).toEqual([{ userId: carol.userId, name: 'Carol' }]);

    const joined = await cara.invites.accept(invite.code, { asMember: carol.userId });
    const caraEntry = joined.members.find((m) => m.userId === caraId);
    expect(caraEntry).toMatchObject({ status: 'active', claimed: [carol.userId] });
    const balances = await cara.groups.balances(group.id);
    expect(balances.currencies[0]?.members).toEqual(
      expect.arrayContaining([
        { userId: adaId, net: -500 },
        { userId: caraId, net: 500 },
      ]),
    );

    // Someone else asking for the same member is refused with the typed error.
    const { client: dan } = await registered('Dan');
    const lost = await rejection(dan.invites.accept(invite.code, { asMember: carol.userId }));
    expect(lost).toBeInstanceOf(MemberClaimedError);

    // The event log says who took over whom, typed by `type`.
    const page = await ada.groups.events(group.id, { limit: 100 });
    const claimed = page.data.find(
      (e): e is Extract<GroupEvent, { type: 'member.claimed' }> => e.type === 'member.claimed',
    );
    expect(claimed?.data.memberId).toBe(carol.userId);
    expect(claimed?.data.userId).toBe(caraId);

    await ada.invites.revoke(group.id, invite.id);
    expect(await ada.invites.list(group.id)).toEqual([]);
    expect(await rejection(dan.invites.preview(invite.code))).toBeInstanceOf(NotFoundError);
    expect(await rejection(dan.invites.accept(invite.code))).toBeInstanceOf(NotFoundError);
  });

  it('claims by email without an invite, and rejects a bad body with ValidationFailedError', async () => {
    const group = await ada.groups.create({ name: 'Flat' });
    const email = uniqueEmail('fred');
    const fredPending = await ada.groups.addMember(group.id, { name: 'Fred', email });
    const { client: fred, id: fredId } = await registered('Fred', email);
    expect(await fred.invites.claimable()).toEqual([
      { groupId: group.id, groupName: 'Flat', memberId: fredPending.userId, name: 'Fred' },
    ]);
    const joined = await fred.invites.claim(group.id, fredPending.userId);
    expect(joined.members.map((m) => m.userId)).toEqual([adaId, fredId]);
    expect(await rejection(ada.invites.create(group.id, { expiresInDays: 31 }))).toBeInstanceOf(
      ValidationFailedError,
    );
  });
});

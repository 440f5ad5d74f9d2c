import {
  EmailTakenError,
  ForbiddenError,
  type GroupEvent,
  MemberClaimedError,
  NotFoundError,
  type TallyClient,
  ValidationFailedError,
  WrongPasswordError,
} from '../../packages/client/src';
import { startSmtpServer, type TestSmtpServer, VERIFY_SUBJECT, verifyTokenOf } from '../support/smtp-server';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** `tally.groups.addMember({name})` and `tally.invites` against the real server (API.md §3.1–§3.3). */
describe('TallyClient: pending members, invites and claims', () => {
  let smtp: TestSmtpServer;
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
    smtp = await startSmtpServer();
    t = await startTestServer({ env: { SMTP_URL: smtp.url } });
    ({ client: ada, id: adaId } = await registered('Ada'));
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
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

  it('claims by email without an invite once the address is verified, and rejects a bad body with ValidationFailedError', async () => {
    const group = await ada.groups.create({ name: 'Flat' });
    const email = uniqueEmail('fred');
    const fredPending = await ada.groups.addMember(group.id, { name: 'Fred', email });
    const { client: fred, id: fredId } = await registered('Fred', email);
    // Not before Fred opens the link mailed at registration (API.md §2.5).
    expect(await fred.auth.me()).toMatchObject({ email, emailVerified: false });
    expect(await fred.invites.claimable()).toEqual([]);
    expect(await rejection(fred.invites.claim(group.id, fredPending.userId))).toBeInstanceOf(ForbiddenError);
    await smtp.waitForMail(email, { subject: VERIFY_SUBJECT });
    expect(await fred.me.requestEmailVerification()).toEqual({ email });
    const token = verifyTokenOf(await smtp.waitForMail(email, { subject: VERIFY_SUBJECT }));
    await newClient().auth.verifyEmail(token); // signed out, on another device
    expect(await rejection(fred.auth.verifyEmail(token))).toBeInstanceOf(NotFoundError);
    expect(await fred.auth.me()).toMatchObject({ email, emailVerified: true });
    expect(await fred.me.requestEmailVerification()).toBeUndefined();
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

describe('TallyClient: changing the login email', () => {
  let smtp: TestSmtpServer;
  let t: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestServer({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  it('moves the login email once the new address confirms it, with typed errors on the way', async () => {
    const gus = quickClient(t.url);
    const email = uniqueEmail('gus');
    await gus.auth.register({ email, name: 'Gus', password: PASSWORD });
    const other = uniqueEmail('other');
    await quickClient(t.url).auth.register({ email: other, name: 'Other', password: PASSWORD });
    expect(await rejection(gus.me.changeEmail(uniqueEmail('x'), 'wrong password'))).toBeInstanceOf(
      WrongPasswordError,
    );
    expect(await rejection(gus.me.changeEmail(other, PASSWORD))).toBeInstanceOf(EmailTakenError);
    const next = uniqueEmail('gus.next');
    expect(await gus.me.changeEmail(next, PASSWORD)).toEqual({ email: next });
    expect(await gus.auth.me()).toMatchObject({ email });
    await gus.auth.verifyEmail(verifyTokenOf(await smtp.waitForMail(next, { subject: VERIFY_SUBJECT })));
    expect(await gus.auth.me()).toMatchObject({ email: next, emailVerified: true });
    expect(await gus.me.changeEmail(next, PASSWORD)).toBeUndefined();
    await quickClient(t.url).auth.login({ email: next, password: PASSWORD });
  });
});

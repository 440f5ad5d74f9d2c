import {
  RESET_SUBJECT,
  resetTokenOf,
  startSmtpServer,
  type TestSmtpServer,
  VERIFY_SUBJECT,
  verifyTokenOf,
} from '../support/smtp-server';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { balancesOf, expectProblem, expectValidationFailed, netsIn } from './component-helpers';

const PASSWORD = 'correct horse battery';

/**
 * API.md §3.3: no claim moves money between two people. A pending member added with an email is
 * the place of whoever proves that address; one added by name only is a place for someone joining,
 * never a second place for a member; one person has one share; and a removed member's invites die
 * with their membership (§3.2). Verification links go through a real SMTP server.
 */
describe('claims that cannot move money between people', () => {
  let smtp: TestSmtpServer;
  let t: TestServer;
  let ada: TestUser;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestServer({ env: { SMTP_URL: smtp.url } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  const addPending = async (groupId: string, body: Record<string, unknown>) => {
    const res = await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send(body);
    expect(res.status).toBe(201);
    return res.body.userId as string;
  };
  const expense = (actor: TestUser, groupId: string, body: Record<string, unknown>) =>
    t.request
      .post('/v1/expenses')
      .set(actor.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, description: 'Dinner', amount: 1000, ...body });
  const invite = async (actor: TestUser, groupId: string) => {
    const res = await t.request.post(`/v1/groups/${groupId}/invites`).set(actor.auth).send({});
    expect(res.status).toBe(201);
    return res.body as { id: string; code: string };
  };
  const accept = (user: TestUser, code: string, body: Record<string, unknown> = {}) =>
    t.request.post(`/v1/invites/${code}/accept`).set(user.auth).send(body);
  const claim = (user: TestUser, groupId: string, memberId: string) =>
    t.request.post(`/v1/groups/${groupId}/members/${memberId}/claim`).set(user.auth);
  const nets = async (groupId: string) => netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR');
  const signIn = async (email: string, password = PASSWORD): Promise<TestUser> => {
    const res = await t.request.post('/v1/auth/login').send({ email, password });
    expect(res.status).toBe(200);
    const { user, accessToken, refreshToken } = res.body;
    return { ...user, accessToken, refreshToken, auth: { Authorization: `Bearer ${accessToken}` } };
  };
  const eventsOf = async (groupId: string) =>
    (await t.request.get(`/v1/groups/${groupId}/events`).set(ada.auth).query({ limit: 100 })).body.data as {
      type: string;
      data: Record<string, unknown>;
    }[];

  it('lets no member reduce what they owe by a claim, by any path; the real owner of the address claims', async () => {
    const bob = await t.register('Bob');
    const groupId = await t.createGroup(ada, [bob]);
    const zedEmail = uniqueEmail('zed');
    const zed = await addPending(groupId, { name: 'Zed', email: zedEmail });
    const yan = await addPending(groupId, { name: 'Yan' });
    // Bob owes Zed 500 and Yan 300.
    expect(
      (await expense(ada, groupId, { paidBy: zed, split: { type: 'equal', between: [bob.id, zed] } })).status,
    ).toBe(201);
    expect(
      (
        await expense(ada, groupId, {
          amount: 600,
          paidBy: yan,
          split: { type: 'equal', between: [bob.id, yan] },
        })
      ).status,
    ).toBe(201);
    const before = { [ada.id]: 0, [bob.id]: -800, [zed]: 500, [yan]: 300 };
    expect(await nets(groupId)).toEqual(before);
    const { code } = await invite(bob, groupId);

    // 1. Bob, a member, through his own invite: neither the emailed place nor the one kept by name.
    expectProblem(await accept(bob, code, { asMember: zed }), 403, 'forbidden');
    expectProblem(await accept(bob, code, { asMember: yan }), 403, 'forbidden');
    expect((await t.request.get(`/v1/invites/${code}`).set(bob.auth)).body.pendingMembers).toEqual([]);
    // 2. The claim by email, with Bob's own address.
    expectProblem(await claim(bob, groupId, zed), 404, 'not_found');
    expectProblem(await claim(bob, groupId, yan), 404, 'not_found');
    // 3. Bob asks to change his address to Zed's: the link goes to Zed's mailbox, Bob's address stays.
    expect(
      (await t.request.post('/v1/me/email').set(bob.auth).send({ email: zedEmail, password: PASSWORD }))
        .status,
    ).toBe(202);
    await smtp.waitForMail(zedEmail, { subject: VERIFY_SUBJECT });
    expectProblem(await claim(bob, groupId, zed), 404, 'not_found');
    expectProblem(await accept(bob, code, { asMember: zed }), 403, 'forbidden');
    // 4. A second account of Bob's, registered with Zed's address, never verified.
    const squatter = await t.register('Bob again');
    const registered = await t.request
      .post('/v1/auth/register')
      .send({ email: zedEmail, name: 'Zed (really Bob)', password: PASSWORD });
    expect(registered.status).toBe(201);
    const bob2 = await signIn(zedEmail);
    expect((await t.request.get('/v1/me/claimable-members').set(bob2.auth)).body).toEqual({ data: [] });
    expectProblem(await claim(bob2, groupId, zed), 403, 'forbidden');
    expectProblem(
      await t.request.post(`/v1/groups/${groupId}/members/${zed}/claim`).set(bob2.auth).send({}),
      403,
      'forbidden',
    );
    expectProblem(await accept(bob2, code, { asMember: zed }), 403, 'forbidden');
    // 5. Someone else with the link and a verified address of their own.
    expect((await t.request.get(`/v1/invites/${code}`).set(squatter.auth)).body.pendingMembers).toEqual([
      { userId: yan, name: 'Yan' },
    ]);
    expectProblem(await accept(squatter, code, { asMember: zed }), 403, 'forbidden');

    // Nothing moved, nobody joined.
    expect(await nets(groupId)).toEqual(before);
    expectProblem(await t.request.get(`/v1/groups/${groupId}`).set(bob2.auth), 404, 'not_found');
    expectProblem(await t.request.get(`/v1/groups/${groupId}`).set(squatter.auth), 404, 'not_found');
    expect((await eventsOf(groupId)).filter((e) => e.type === 'member.claimed')).toEqual([]);

    // The real Zed reads his mailbox: he takes the account back by a password reset, opens a
    // verification link, and only then is the place his.
    expect((await t.request.post('/v1/auth/password-reset').send({ email: zedEmail })).status).toBe(202);
    const reset = resetTokenOf(await smtp.waitForMail(zedEmail, { subject: RESET_SUBJECT }));
    const zedPassword = 'zed own passphrase';
    expect(
      (await t.request.post('/v1/auth/password-reset/confirm').send({ token: reset, password: zedPassword }))
        .status,
    ).toBe(204);
    const realZed = await signIn(zedEmail, zedPassword);
    expect((await t.request.post('/v1/me/email/verification').set(realZed.auth)).status).toBe(202);
    // Bob's change link, the registration's and the new one are in the mailbox; the newest alone works.
    await until(() => smtp.mailsTo(zedEmail, VERIFY_SUBJECT).length === 3, 'the third verification mail');
    const links = smtp.mailsTo(zedEmail, VERIFY_SUBJECT).map(verifyTokenOf);
    // Bob's change can never complete: the address is another account's now.
    expectProblem(
      await t.request.post('/v1/auth/verify-email').send({ token: links[0] }),
      409,
      'email_taken',
    );
    expectProblem(await t.request.post('/v1/auth/verify-email').send({ token: links[1] }), 404, 'not_found');
    const token = links[2] as string;
    expect((await t.request.post('/v1/auth/verify-email').send({ token })).status).toBe(204);
    expect((await t.request.get('/v1/me/claimable-members').set(realZed.auth)).body.data).toEqual([
      { groupId, groupName: 'Trip', memberId: zed, name: 'Zed' },
    ]);
    expectValidationFailed(
      await t.request.post(`/v1/groups/${groupId}/members/${zed}/claim`).set(realZed.auth).send({ x: 1 }),
      'x',
    );
    const claimed = await t.request
      .post(`/v1/groups/${groupId}/members/${zed}/claim`)
      .set(realZed.auth)
      .send({});
    expect(claimed.status).toBe(201);
    expect(await nets(groupId)).toEqual({ [ada.id]: 0, [bob.id]: -800, [realZed.id]: 500, [yan]: 300 });
  });

  it('charges one person one share: an account and the pending member it took over are never both named in a list', async () => {
    const paul = await t.register('Paul');
    const groupId = await t.createGroup(ada, [paul]);
    const pat = await addPending(groupId, { name: 'Pat' });
    // Written while Paul and Pat were two people: Paul owes 500, Pat 500.
    const old = await expense(ada, groupId, {
      paidBy: ada.id,
      split: { type: 'equal', between: [paul.id, pat] },
    });
    expect(old.status).toBe(201);
    const settled = await t.request
      .post('/v1/settlements')
      .set(paul.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, fromUserId: paul.id, toUserId: ada.id, amount: 500 });
    expect(settled.status).toBe(201);
    expect((await t.request.delete(`/v1/groups/${groupId}/members/${paul.id}`).set(paul.auth)).status).toBe(
      204,
    );
    // Paul, no longer a member, takes over Pat's place through an invite: Pat's debt is his now.
    const { code } = await invite(ada, groupId);
    expect((await accept(paul, code, { asMember: pat })).status).toBe(201);
    expect(await nets(groupId)).toEqual({ [ada.id]: 500, [paul.id]: -500 });

    // A new record naming both is refused, with the path of the later one.
    expectValidationFailed(
      await expense(paul, groupId, {
        paidBy: ada.id,
        split: { type: 'equal', between: [paul.id, ada.id, pat] },
      }),
      'split.between[2]',
    );
    expectValidationFailed(
      await expense(paul, groupId, {
        paidBy: [
          { userId: pat, amount: 400 },
          { userId: paul.id, amount: 600 },
        ],
        split: { type: 'exact', between: [{ userId: ada.id, amount: 1000 }] },
      }),
      'paidBy[1].userId',
    );
    expectValidationFailed(
      await t.request
        .post(`/v1/groups/${groupId}/recurring`)
        .set(paul.auth)
        .set('Idempotency-Key', newKey())
        .send({
          expense: {
            description: 'Rent',
            amount: 1000,
            paidBy: ada.id,
            split: { type: 'equal', between: [pat, paul.id] },
          },
          schedule: { every: 'month', startsOn: '2030-01-01', timeZone: 'UTC' },
        }),
      'expense.split.between[1]',
    );
    // One id of the two is fine: Pat counts as Paul.
    expect(
      (await expense(paul, groupId, { paidBy: ada.id, split: { type: 'equal', between: [ada.id, pat] } }))
        .status,
    ).toBe(201);
    expect(await nets(groupId)).toEqual({ [ada.id]: 1000, [paul.id]: -1000 });

    // The old record stays as written: editing what it does not change still works, setting its split anew is checked.
    const patch = (body: Record<string, unknown>) =>
      t.request
        .patch(`/v1/expenses/${old.body.id}`)
        .set(paul.auth)
        .set('Idempotency-Key', newKey())
        .send(body);
    expect((await patch({ description: 'Old dinner' })).status).toBe(200);
    expectValidationFailed(
      await patch({
        split: {
          type: 'shares',
          between: [
            { userId: paul.id, shares: 1 },
            { userId: pat, shares: 2 },
          ],
        },
      }),
      'split.between[1].userId',
    );
    expect((await patch({ split: { type: 'equal', between: [ada.id, pat] } })).status).toBe(200);
    expect(await nets(groupId)).toEqual({ [ada.id]: 500, [paul.id]: -500 });
  });

  it('revokes the invites a member made when they are removed or leave, in the same change', async () => {
    const bob = await t.register('Bob');
    const cy = await t.register('Cy');
    const groupId = await t.createGroup(ada, [bob, cy]);
    const kept = await invite(ada, groupId);
    const bobs = [await invite(bob, groupId), await invite(bob, groupId)];
    const cys = await invite(cy, groupId);
    const listed = async () =>
      ((await t.request.get(`/v1/groups/${groupId}/invites`).set(ada.auth)).body.data as { id: string }[])
        .map((i) => i.id)
        .sort();
    expect(await listed()).toEqual([kept.id, ...bobs.map((i) => i.id), cys.id].sort());

    // Removed by Ada: Bob's links die with his membership, and he cannot walk back in by one.
    expect((await t.request.delete(`/v1/groups/${groupId}/members/${bob.id}`).set(ada.auth)).status).toBe(
      204,
    );
    let events = await eventsOf(groupId);
    expect(events[events.length - 1]).toMatchObject({
      type: 'member.removed',
      data: { userId: bob.id, revokedInvites: bobs.map((i) => i.id) },
    });
    for (const { code } of bobs) {
      expectProblem(await accept(bob, code), 404, 'not_found');
      expectProblem(await t.request.get(`/v1/invites/${code}`).set(bob.auth), 404, 'not_found');
    }
    expect(await listed()).toEqual([kept.id, cys.id].sort());

    // Leaving by themselves: the same.
    expect((await t.request.delete(`/v1/groups/${groupId}/members/${cy.id}`).set(cy.auth)).status).toBe(204);
    events = await eventsOf(groupId);
    expect(events[events.length - 1]).toMatchObject({
      type: 'member.removed',
      data: { userId: cy.id, revokedInvites: [cys.id] },
    });
    expectProblem(await accept(cy, cys.code), 404, 'not_found');
    expect(await listed()).toEqual([kept.id]);

    // A member who made none: nothing listed. Ada's invite still works.
    const dan = await t.register('Dan');
    expect((await accept(dan, kept.code)).status).toBe(201);
    expect((await t.request.delete(`/v1/groups/${groupId}/members/${dan.id}`).set(ada.auth)).status).toBe(
      204,
    );
    events = await eventsOf(groupId);
    expect(events[events.length - 1]?.data).toEqual({ userId: dan.id });
    expect((await accept(bob, kept.code)).status).toBe(201);
  });
});

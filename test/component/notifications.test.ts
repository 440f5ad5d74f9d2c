import { createWeeklyDigest, isoWeekOf } from '../../apps/api/src/notifications/weekly-digest';
import { startPushEndpoint, type TestPushEndpoint } from '../support/push-endpoint';
import {
  type ReceivedMail,
  startSmtpServer,
  type TestSmtpServer,
  VERIFY_SUBJECT,
  verifyTokenOf,
} from '../support/smtp-server';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { expectProblem, expectValidationFailed, postExpense, postSettlement } from './component-helpers';

/**
 * API.md §13 end to end with real parts: a real SMTP server (smtp-server, mails parsed with
 * mailparser) and a local push service that decrypts every payload with `http_ece` using the
 * subscription's private key, as a browser would. Notifications come from the event log.
 */
describe('push and mail notifications (API.md §13)', () => {
  let smtp: TestSmtpServer;
  let push: TestPushEndpoint;
  let t: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    push = await startPushEndpoint();
    t = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        APP_URL: 'https://app.tally.test',
        PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
        NOTIFY_POLL_MS: '50',
        RECURRING_POLL_MS: '100',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await push?.stop();
    await smtp?.stop();
  });

  /** A user whose email is confirmed (notification mails go only to confirmed addresses). */
  const verifiedUser = async (name: string): Promise<TestUser> => {
    const user = await t.register(name);
    const token = verifyTokenOf(await smtp.waitForMail(user.email, { subject: VERIFY_SUBJECT }));
    expect((await t.request.post('/v1/auth/verify-email').send({ token })).status).toBe(204);
    return user;
  };
  const subscribe = async (user: TestUser) => {
    const device = push.device();
    const res = await t.request.post('/v1/me/push-subscriptions').set(user.auth).send(device.subscription);
    expect(res.status).toBe(201);
    return { device, id: res.body.id as string };
  };
  const putSettings = (user: TestUser, body: object) =>
    t.request.put('/v1/me/notification-settings').set(user.auth).send(body);
  /** A header field as sent (mailparser structures the `List-*` ones). */
  const headerOf = (mail: ReceivedMail, name: string): string => {
    const line = mail.parsed.headerLines.find((h) => h.key === name)?.line ?? '';
    return line.slice(line.indexOf(':') + 1).trim();
  };
  const deliveriesOf = (userId: string) =>
    t.server.knex('notification_deliveries').where({ user_id: userId }).orderBy('id');

  it('pushes an expense to the others involved, encrypted, with their share and a deep link', async () => {
    const [ada, bob, cy] = [await t.register('Ada'), await t.register('Bob'), await t.register('Cy')];
    const groupId = await t.createGroup(ada, [bob, cy], { name: 'Lisbon trip', currency: 'EUR' });
    const bobs = await subscribe(bob);
    const adas = await subscribe(ada);

    const res = await postExpense(t, ada, groupId, ada, 9000, [ada, bob], { currency: 'EUR' });
    expect(res.status).toBe(201);
    const { payload, headers } = await push.waitForPush(bobs.device);
    expect(payload).toEqual({
      id: expect.any(String),
      tag: `expense:${(await t.server.knex('events').where({ group_id: groupId, type: 'expense.created' }).first('id')).id}`,
      title: 'Lisbon trip: Ada added an expense',
      body: '“Dinner”, 90.00 EUR; your share 45.00 EUR.',
      url: `https://app.tally.test/#group=${groupId}&record=${res.body.id}`,
    });
    // RFC 8030/8291/8292 on the wire: an aes128gcm body, a TTL, a VAPID token with the public key.
    expect(headers['content-encoding']).toBe('aes128gcm');
    expect(headers.ttl).toBe('86400');
    const key = (await t.request.get('/v1/push/vapid-public-key').set(ada.auth)).body.publicKey;
    expect(headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${key}$`));

    // Nobody is told of their own change, nor of an expense that does not involve them.
    await until(async () => (await deliveriesOf(bob.id)).every((d) => d.status === 'sent'));
    expect(adas.device.hits).toBe(0);
    expect(await deliveriesOf(ada.id)).toEqual([]);
    expect(await deliveriesOf(cy.id)).toEqual([]);
  });

  it('mails per the settings, with List-Unsubscribe one-click that turns that kind off', async () => {
    const ada = await verifiedUser('Ada');
    const bob = await verifiedUser('Bob');
    const groupId = await t.createGroup(ada, [bob], { name: 'Flat', currency: 'EUR' });
    // Settlements are mailed by default; expenses are not, until asked for.
    expect((await t.request.get('/v1/me/notification-settings').set(bob.auth)).body.expense).toEqual({
      push: true,
      email: false,
    });
    const put = await putSettings(bob, { expense: { email: true } });
    expect(put.status).toBe(200);
    expect(put.body.expense).toEqual({ push: true, email: true });
    expect(put.body.settlement).toEqual({ push: true, email: true });

    expect((await postExpense(t, ada, groupId, ada, 3000, [ada, bob], { currency: 'EUR' })).status).toBe(201);
    const mail = await smtp.waitForMail(bob.email, { subject: 'Flat: Ada added an expense' });
    expect(mail.text).toContain('your share 15.00 EUR');
    expect(mail.text).toContain(`Open Tally: https://app.tally.test/#group=${groupId}`);
    expect(mail.text).toMatch(/https:\/\/app\.tally\.test\/#unsubscribe=[\w-]+\.[\w-]+/);
    expect(headerOf(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = headerOf(mail, 'list-unsubscribe').replace(/^<|>$/g, '');
    expect(unsubscribe).toMatch(/^https:\/\/app\.tally\.test\/v1\/auth\/unsubscribe\?token=[\w-]+\.[\w-]+$/);
    expect(mail.parsed.messageId).toMatch(/^<notification-\d+@tally\.invalid>$/);

    // What a mail client does (RFC 8058): a form post, no sign-in.
    const path = unsubscribe.replace('https://app.tally.test', '');
    const off = await t.request.post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(off.status).toBe(204);
    expect((await t.request.get('/v1/me/notification-settings').set(bob.auth)).body.expense).toEqual({
      push: true,
      email: false,
    });
    expect((await t.request.post(path)).status).toBe(204);
    // A forged token changes nothing.
    const forged = await t.request.post(`${path.slice(0, -3)}AAA`);
    expectValidationFailed(forged, 'token');

    // Off: the next expense mails nothing; a settlement (still on) does.
    expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob], { currency: 'EUR' })).status).toBe(201);
    expect((await postSettlement(t, ada, groupId, bob, ada, 500, { currency: 'EUR' })).status).toBe(201);
    const paid = await smtp.waitForMail(bob.email, { subject: 'Flat: a payment from you' });
    expect(paid.text).toContain('You paid Ada 5.00 EUR');
    expect(smtp.mailsTo(bob.email, 'Flat: Ada added an expense')).toHaveLength(1);
  });

  it('sends nothing when the settings say no, and bounds and validates subscriptions', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const groupId = await t.createGroup(ada, [bob]);
    const bobs = await subscribe(bob);
    expect((await putSettings(bob, { expense: { push: false, email: false } })).status).toBe(200);
    expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob])).status).toBe(201);
    // The comment after it is wanted: once it came, the expense before it was passed over.
    expect(
      (
        await t.request
          .post(
            `/v1/expenses/${(await t.server.knex('expenses').where({ group_id: groupId }).first('id')).id}/comments`,
          )
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send({ text: 'Paid by card' })
      ).status,
    ).toBe(201);
    const { payload } = await push.waitForPush(bobs.device);
    expect(payload.title).toBe('Trip: Ada commented on “Dinner”');
    expect(payload.body).toBe('Paid by card');
    expect(bobs.device.received).toHaveLength(1);

    expectValidationFailed(
      await t.request
        .post('/v1/me/push-subscriptions')
        .set(bob.auth)
        .send({ endpoint: 'https://push.example/x', keys: { p256dh: 'short', auth: 'x' } }),
      'keys.p256dh',
      'keys.auth',
    );
    expectValidationFailed(await putSettings(bob, { expense: { push: 'yes' } }), 'expense.push');
    for (let i = 1; i < 10; i++) await subscribe(bob);
    const over = await t.request
      .post('/v1/me/push-subscriptions')
      .set(bob.auth)
      .send(push.device().subscription);
    expectProblem(over, 422, 'limit_exceeded');
    expect(over.body.limit).toEqual({ name: 'pushSubscriptionsPerUser', max: 10 });
    const listed = await t.request.get('/v1/me/push-subscriptions').set(bob.auth);
    expect(listed.body.data).toHaveLength(10);
    expect((await t.request.delete(`/v1/me/push-subscriptions/${bobs.id}`).set(ada.auth)).status).toBe(404);
    expect((await t.request.delete(`/v1/me/push-subscriptions/${bobs.id}`).set(bob.auth)).status).toBe(204);
  });

  it('forgets a deleted account: its settings, browsers and what was still to be sent (API.md §11.3)', async () => {
    const eve = await t.register('Eve');
    await subscribe(eve);
    expect((await putSettings(eve, { expense: { email: true } })).status).toBe(200);
    const [pending] = await t.server
      .knex('notification_deliveries')
      .insert({
        source_id: `test-${newKey()}`,
        user_id: eve.id,
        channel: 'email',
        kind: 'expense',
        content: JSON.stringify({ title: 'never sent' }),
        next_attempt_at: new Date(Date.now() + 3_600_000),
        created_at: new Date(),
      })
      .returning('id');
    expect(pending).toBeDefined();
    const deleted = await t.request.delete('/v1/me').set(eve.auth).set('Idempotency-Key', newKey());
    expect(deleted.status).toBe(204);
    const left = async (table: string) => (await t.server.knex(table).where({ user_id: eve.id })).length;
    expect([
      await left('push_subscriptions'),
      await left('notification_settings'),
      await left('notification_deliveries'),
    ]).toEqual([0, 0, 0]);
  });

  it('deletes a subscription the push service says is gone (410), and retries a 500', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const groupId = await t.createGroup(ada, [bob]);
    const gone = await subscribe(bob);
    const flaky = await subscribe(bob);
    gone.device.answer = 410;
    flaky.device.answer = 500;
    expect((await postSettlement(t, ada, groupId, ada, bob, 700)).status).toBe(201);
    await until(async () => (await t.server.knex('push_subscriptions').where({ id: gone.id })).length === 0);
    await until(async () => {
      const row = await t.server.knex('notification_deliveries').where({ subscription_id: flaky.id }).first();
      return row?.attempts === 1 && row.status === 'pending' && /500/.test(row.last_error);
    });
    expect(flaky.device.hits).toBe(1);
    const listed = await t.request.get('/v1/me/push-subscriptions').set(bob.auth);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([flaky.id]);
  });

  it('reminds a member who owes the caller, once a day per pair', async () => {
    const ada = await verifiedUser('Ada');
    const bob = await verifiedUser('Bob');
    const groupId = await t.createGroup(ada, [bob], { name: 'Rent', currency: 'EUR' });
    const bobs = await subscribe(bob);
    const remind = (from: TestUser, to: TestUser) =>
      t.request.post(`/v1/groups/${groupId}/reminders`).set(from.auth).send({ toUserId: to.id });

    expectValidationFailed(await remind(ada, bob), 'toUserId'); // nothing owed yet
    expect((await putSettings(bob, { expense: { push: false } })).status).toBe(200);
    expect((await postExpense(t, ada, groupId, ada, 10000, [ada, bob], { currency: 'EUR' })).status).toBe(
      201,
    );
    expectValidationFailed(await remind(bob, ada), 'toUserId'); // Ada owes Bob nothing
    expectValidationFailed(await remind(ada, ada), 'toUserId');

    const sent = await remind(ada, bob);
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.stringMatching(/^rmd_/),
      groupId,
      fromUserId: ada.id,
      toUserId: bob.id,
      owed: [{ currency: 'EUR', amount: 5000 }],
      createdAt: expect.any(String),
    });
    const { payload } = await push.waitForPush(bobs.device);
    expect(payload.body).toBe('You owe Ada 50.00 EUR. Settle up when you can.');
    const mail = await smtp.waitForMail(bob.email, { subject: 'Rent: a reminder from Ada' });
    expect(headerOf(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    const again = await remind(ada, bob);
    expectProblem(again, 429, 'rate_limited');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(86_000);
    expect(
      (
        await t.request
          .post(`/v1/groups/${groupId}/reminders`)
          .set((await t.register('Eve')).auth)
          .send({ toUserId: bob.id })
      ).status,
    ).toBe(404);
  });

  it('pushes an occurrence of a recurring expense to everyone it involves, the creator too', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const groupId = await t.createGroup(ada, [bob], { name: 'Rent', currency: 'EUR' });
    const [adas, bobs] = [await subscribe(ada), await subscribe(bob)];
    const today = new Date().toISOString().slice(0, 10);
    const created = await t.request
      .post(`/v1/groups/${groupId}/recurring`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        expense: {
          description: 'Rent',
          amount: 120000,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id, bob.id] },
        },
        schedule: { every: 'month', startsOn: today, timeZone: 'UTC' },
      });
    expect(created.status).toBe(201);
    for (const [device, share] of [
      [bobs.device, '600.00'],
      [adas.device, '600.00'],
    ] as const) {
      const { payload } = await push.waitForPush(device);
      expect(payload.title).toBe('Rent: a recurring expense');
      expect(payload.body).toBe(`“Rent”, 1200.00 EUR was added again; your share ${share} EUR.`);
    }
  });

  it('tells a removed member nothing more of the group', async () => {
    const [ada, bob, cy] = [await t.register('Ada'), await t.register('Bob'), await t.register('Cy')];
    const groupId = await t.createGroup(ada, [bob, cy], { name: 'Leavers' });
    const [bobs, cys] = [await subscribe(bob), await subscribe(cy)];
    // Bob's own expense, all his: he is involved in it and his net stays 0, so he can be removed.
    const own = await postExpense(t, bob, groupId, bob, 500, [bob]);
    expect(own.status).toBe(201);
    const removed = await t.request.delete(`/v1/groups/${groupId}/members/${bob.id}`).set(ada.auth);
    expect(removed.status).toBe(204);
    const comment = (expenseId: string, text: string) =>
      t.request
        .post(`/v1/expenses/${expenseId}/comments`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ text });
    expect((await comment(own.body.id, 'Bob, was this yours?')).status).toBe(201);
    // A later notification of the same group's log to Cy: once it came, the comment was passed over.
    expect((await postSettlement(t, ada, groupId, ada, cy, 100)).status).toBe(201);
    expect((await push.waitForPush(cys.device)).payload.title).toBe('Leavers: a payment to you');
    expect(bobs.device.hits).toBe(0);
    expect(await deliveriesOf(bob.id)).toEqual([]);
  });

  it('tells the members when someone accepts an invite', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const groupId = await t.createGroup(ada, [], { name: 'Choir' });
    const adas = await subscribe(ada);
    const invite = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
    expect(invite.status).toBe(201);
    expect(
      (await t.request.post(`/v1/invites/${invite.body.code}/accept`).set(bob.auth).send({})).status,
    ).toBe(201);
    const { payload } = await push.waitForPush(adas.device);
    expect(payload).toEqual(
      expect.objectContaining({
        title: 'Choir: Bob joined',
        url: `https://app.tally.test/#group=${groupId}`,
      }),
    );
  });

  it('mails the weekly digest once per user and week, and skips who turned it off', async () => {
    const ada = await verifiedUser('Ada');
    const bob = await verifiedUser('Bob');
    expect((await putSettings(bob, { digest: { email: false } })).status).toBe(200);
    const groupId = await t.createGroup(ada, [bob], { name: 'Digest club', currency: 'EUR' });
    const subject = `Your week on Tally (${isoWeekOf(new Date())})`;
    const mail = await smtp.waitForMail(ada.email, { subject });
    expect(mail.text).toMatch(/^Your groups this week:\n- Digest club: /);
    expect(mail.text).toContain(`https://app.tally.test/#group=${groupId}`);
    expect(headerOf(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const digestRows = async () =>
      (
        await t.server
          .knex('notification_deliveries')
          .whereIn('user_id', [ada.id, bob.id])
          .where({ kind: 'digest' })
      )
        .map((r) => [r.user_id, r.status])
        .sort();
    const handled = [
      [ada.id, 'sent'],
      [bob.id, 'skipped'],
    ].sort();
    // Ada's row is marked sent once the SMTP server took the mail (just after it arrived there).
    await until(
      async () => JSON.stringify(await digestRows()) === JSON.stringify(handled),
      'digests handled',
    );

    // Another pass (as a second process would run) queues nothing more for this week.
    const digest = createWeeklyDigest({ knex: t.server.knex, appUrl: () => 'https://app.tally.test' });
    await digest.pass();
    expect(await digestRows()).toEqual(handled);
    expect(smtp.mailsTo(ada.email, subject)).toHaveLength(1);
    expect(smtp.mailsTo(bob.email, subject)).toHaveLength(0);
  });
});

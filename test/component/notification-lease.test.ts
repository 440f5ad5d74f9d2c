import pino from 'pino';
import webpush from 'web-push';
import { createLogMailer } from '../../apps/api/src/mail/mailer';
import { createDeliverySender } from '../../apps/api/src/notifications/delivery-sender';
import { createNotificationFeed } from '../../apps/api/src/notifications/notification-feed';
import { createPushSender } from '../../apps/api/src/notifications/push-sender';
import { createUnsubscribeTokens } from '../../apps/api/src/notifications/unsubscribe-token';
import { startPushEndpoint, type TestPushEndpoint } from '../support/push-endpoint';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { postExpense } from './component-helpers';

/**
 * API.md §13.6: a sender claims a delivery for a lease. One that outlives it (a push service that
 * does not answer) has the delivery taken over by another sender once the lease is over; the other
 * sends it, and the slow one's late outcome changes nothing. Real PostgreSQL, a real local push
 * service, the server's own notifier off so the two senders here are the only ones.
 */
describe('a notification whose sender outlives its lease', () => {
  let t: TestServer;
  let push: TestPushEndpoint;
  beforeAll(async () => {
    push = await startPushEndpoint();
    t = await startTestServer({ env: { NOTIFY_POLL_MS: '0', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' } });
  });
  afterAll(async () => {
    await t?.stop();
    await push?.stop();
  });

  const senderWith = (options: { leaseMs: number; timeoutMs: number }, vapid: webpush.VapidKeys) =>
    createDeliverySender({
      knex: t.server.knex,
      mailer: createLogMailer({ logger: pino({ level: 'silent' }) }),
      push: createPushSender({
        vapid: { ...vapid, subject: 'mailto:ops@example.com' },
        allowInternal: true,
        timeoutMs: options.timeoutMs,
      }),
      tokens: createUnsubscribeTokens('lease-test-secret-lease-test-secret'),
      apiUrl: () => 'https://app.example',
      appUrl: () => 'https://app.example',
      leaseMs: options.leaseMs,
    });

  it('is taken over after the lease and sent once; the slow sender cannot undo it', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const groupId = await t.createGroup(ada, [bob]);
    const device = push.device();
    expect(
      (await t.request.post('/v1/me/push-subscriptions').set(bob.auth).send(device.subscription)).status,
    ).toBe(201);
    expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob])).status).toBe(201);
    await createNotificationFeed({ knex: t.server.knex, appUrl: () => 'https://app.example' }).pass();
    const row = () => t.server.knex('notification_deliveries').where({ user_id: bob.id }).first();
    expect((await row())?.status).toBe('pending');

    const vapid = webpush.generateVAPIDKeys();
    const slow = senderWith({ leaseMs: 500, timeoutMs: 3000 }, vapid);
    const fast = senderWith({ leaseMs: 60_000, timeoutMs: 3000 }, vapid);
    device.answer = 0; // the push service takes the slow sender's push and never answers
    const slowPass = slow.pass();
    await until(() => device.hits === 1, 'the slow sender reached the push service');
    expect(await fast.pass()).toBe(0); // leased: nobody else takes it

    device.answer = 201;
    await until(async () => (await fast.pass()) === 1, 'taken over once the lease is over');
    expect(device.received).toHaveLength(1);
    expect(await row()).toEqual(expect.objectContaining({ status: 'sent', attempts: 2 }));

    // The slow sender's push times out: a retry it would have scheduled is not written over "sent".
    expect(await slowPass).toBe(1);
    expect(await row()).toEqual(expect.objectContaining({ status: 'sent', attempts: 2, last_error: null }));
    expect(await fast.pass()).toBe(0);
    expect(device.hits).toBe(2);
  });
});

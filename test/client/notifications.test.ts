import { createUnsubscribeTokens } from '../../apps/api/src/notifications/unsubscribe-token';
import { NotFoundError, RateLimitedError, ValidationFailedError } from '../../packages/client/src';
import { startPushEndpoint, type TestPushEndpoint } from '../support/push-endpoint';
import {
  newKey,
  startTestServer,
  TEST_JWT_SECRET,
  type TestServer,
  uniqueEmail,
} from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** `tally.notifications` and `tally.push` against the real server and a local push service (API.md §13). */
describe('TallyClient: notifications', () => {
  let t: TestServer;
  let push: TestPushEndpoint;
  beforeAll(async () => {
    push = await startPushEndpoint();
    t = await startTestServer({ env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true', NOTIFY_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await t?.stop();
    await push?.stop();
  });

  const signedUp = async (name: string) => {
    const client = quickClient(t.url);
    const session = await client.auth.register({ email: uniqueEmail(name), name, password: PASSWORD });
    return { client, id: session.user.id };
  };

  it('reads and merges settings, registers a browser that then gets pushes, and reminds', async () => {
    const ada = await signedUp('Ada');
    const bob = await signedUp('Bob');
    expect((await bob.client.notifications.getSettings()).comment).toEqual({ push: true, email: false });
    const merged = await bob.client.notifications.putSettings({ comment: { email: true } });
    expect(merged.comment).toEqual({ push: true, email: true });
    expect(merged.expense).toEqual({ push: true, email: false });

    expect(await bob.client.push.vapidPublicKey()).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const device = push.device();
    const registered = await bob.client.push.subscribe({ ...device.subscription, expirationTime: null });
    expect(await bob.client.push.list()).toEqual([registered]);

    const group = await ada.client.groups.create({ name: 'Sdk trip', currency: 'EUR' });
    await ada.client.groups.addMember(group.id, { userId: bob.id });
    await ada.client.expenses.create({
      groupId: group.id,
      description: 'Tickets',
      amount: 4000,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id, bob.id] },
    });
    const { payload } = await push.waitForPush(device);
    expect(payload.body).toBe('“Tickets”, 40.00 EUR; your share 20.00 EUR.');

    const reminder = await ada.client.notifications.remind(group.id, bob.id);
    expect(reminder.owed).toEqual([{ currency: 'EUR', amount: 2000 }]);
    const again = await rejection(ada.client.notifications.remind(group.id, bob.id));
    expect(again).toBeInstanceOf(RateLimitedError);
    expect((again as RateLimitedError).retryAfterMs).toBeGreaterThan(86_000_000);
    expect(await rejection(bob.client.notifications.remind(group.id, ada.id))).toBeInstanceOf(
      ValidationFailedError,
    );
    expect((await push.waitForPush(device, 2)).payload.title).toBe('Sdk trip: a reminder from Ada');

    await bob.client.push.unsubscribe(registered.id);
    expect(await bob.client.push.list()).toEqual([]);
    expect(await rejection(bob.client.push.unsubscribe(registered.id))).toBeInstanceOf(NotFoundError);
  });

  it('unsubscribes with a mail’s token, signed in or not', async () => {
    const cy = await signedUp('Cy');
    const anonymous = quickClient(t.url);
    await anonymous.notifications.unsubscribe(
      createUnsubscribeTokens(TEST_JWT_SECRET).make(cy.id, 'reminder'),
    );
    expect((await cy.client.notifications.getSettings()).reminder).toEqual({ push: true, email: false });
    expect(await rejection(anonymous.notifications.unsubscribe(`x.${newKey()}`))).toBeInstanceOf(
      ValidationFailedError,
    );
  });
});

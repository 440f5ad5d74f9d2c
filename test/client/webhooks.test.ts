import { Webhook } from 'standardwebhooks';
import { NotFoundError, verifyWebhook, WebhookVerificationError } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** `tally.webhooks` against the real server, and `verifyWebhook` against real deliveries and the reference package. */
describe('TallyClient: webhooks', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  it('manages a group’s endpoints and verifies what they receive', async () => {
    const tally = quickClient(t.url);
    await tally.auth.register({ email: uniqueEmail('Hooks'), name: 'Hooks', password: PASSWORD });
    const group = await tally.groups.create({ name: 'Trip' });
    const hook = await tally.webhooks.create(group.id, {
      url: `${receiver.url}/sdk`,
      eventTypes: ['group.updated'],
    });
    expect(hook.secret).toMatch(/^whsec_/);
    expect((await tally.webhooks.list(group.id)).map((h) => h.id)).toEqual([hook.id]);
    await tally.groups.update(group.id, { name: 'Goa' });
    await until(() => receiver.of('/sdk').length === 1, 'the delivery');
    const [got] = receiver.of('/sdk');
    const headers = {
      'webhook-id': got!.id,
      'webhook-timestamp': got!.timestamp,
      'webhook-signature': got!.signature,
    };
    const payload = await verifyWebhook<{ type: string; data: { groupId: string } }>(
      hook.secret,
      headers,
      got!.body,
    );
    expect(payload).toMatchObject({ type: 'group.updated', data: { groupId: group.id } });
    // A Headers object works too; a changed body does not verify.
    expect(await verifyWebhook(hook.secret, new Headers(headers), got!.body)).toEqual(payload);
    expect(await rejection(verifyWebhook(hook.secret, headers, `${got!.body} `))).toBeInstanceOf(
      WebhookVerificationError,
    );

    // Recorded after the receiver's answer: wait for the log.
    await until(
      async () => (await tally.webhooks.deliveries(group.id, hook.id)).data.length === 1,
      'recorded',
    );
    const log = await tally.webhooks.deliveries(group.id, hook.id, { limit: 5 });
    expect(log.data.map((d) => d.status)).toEqual(['succeeded']);
    expect((await tally.webhooks.resend(group.id, hook.id, log.data[0]!.id)).resendRequested).toBe(true);
    const rotated = await tally.webhooks.rotateSecret(group.id, hook.id, { previousSecretSeconds: 60 });
    expect(rotated.secret).not.toBe(hook.secret);
    const updated = await tally.webhooks.update(group.id, hook.id, { enabled: false });
    expect(updated.disabledReason).toBe('Disabled by a member of the group.');
    expect((await tally.webhooks.get(group.id, hook.id)).enabled).toBe(false);
    await tally.webhooks.delete(group.id, hook.id);
    expect(await rejection(tally.webhooks.get(group.id, hook.id))).toBeInstanceOf(NotFoundError);
  });

  it('verifies what the standardwebhooks package signs, and refuses stale or foreign ones', async () => {
    const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
    const reference = new Webhook(secret);
    const body = '{"type":"expense.created","timestamp":"2026-11-28T10:00:00.000Z","data":{"seq":3}}';
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': `v1,bm90IHRoaXMgb25l ${reference.sign('msg_2', at, body)}`,
    };
    expect(await verifyWebhook(secret, headers, body)).toEqual(JSON.parse(body));
    const later = () => at.getTime() + 301_000;
    expect(await rejection(verifyWebhook(secret, headers, body, { now: later }))).toBeInstanceOf(
      WebhookVerificationError,
    );
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(await rejection(verifyWebhook(other, headers, body))).toBeInstanceOf(WebhookVerificationError);
    expect(await rejection(verifyWebhook(secret, { 'webhook-id': 'msg_2' }, body))).toBeInstanceOf(
      WebhookVerificationError,
    );
  });
});

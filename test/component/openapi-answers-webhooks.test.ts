/**
 * The webhook operations (API.md §12) answer as the document says: every one with a validated
 * success, and its refusals, against a real receiver on this host.
 */

import { newKey, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import {
  answeredByWebhooksSuite,
  answering,
  expectEveryOperationAnswered,
  startOpenApiServer,
} from './openapi-helpers';

describe('OpenAPI document: answers (webhooks)', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    ({ t } = await startOpenApiServer({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '50' }));
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  it('answers every documented webhook operation as documented', async () => {
    const { call, expectStatus } = answering(t);
    const cy = await t.register('Cy');
    const stranger = await t.register('Stranger');
    const groupId = await t.createGroup(cy);
    const base = `/v1/groups/${groupId}/webhooks`;
    const created = await call('post', base, {
      user: cy,
      body: { url: `${receiver.url}/doc`, eventTypes: [] },
    });
    expectStatus(created, 201);
    expectStatus(await call('post', base, { user: cy, body: { url: 'gopher://example.com' } }), 422);
    expectStatus(await call('post', base, { user: stranger, body: { url: 'https://example.com' } }), 404);
    const one = `${base}/${created.body.id}`;
    expectStatus(await call('get', base, { user: cy }), 200);
    expectStatus(await call('get', one, { user: cy }), 200);
    expectStatus(await call('get', one, { user: stranger }), 404);
    expectStatus(await call('patch', one, { user: cy, body: { description: 'Docs' } }), 200);
    expectStatus(await call('patch', one, { user: cy, body: {} }), 422);
    expectStatus(await call('post', `${one}/rotate-secret`, { user: cy, body: {} }), 200);
    expect((await t.postOwnExpense(cy, groupId, newKey())).status).toBe(201);
    // Recorded after the receiver's answer: wait for the log, not the receiver.
    await until(
      async () => (await t.request.get(`${one}/deliveries`).set(cy.auth)).body.data.length === 1,
      'one delivery recorded',
    );
    const log = await call('get', `${one}/deliveries`, { user: cy });
    expectStatus(log, 200);
    expectStatus(await call('get', `${one}/deliveries?cursor=x`, { user: cy }), 422);
    expectStatus(await call('post', `${one}/deliveries/${log.body.data[0].id}/resend`, { user: cy }), 202);
    expectStatus(await call('post', `${one}/deliveries/msg_none_1/resend`, { user: cy }), 404);
    expectStatus(await call('delete', one, { user: cy }), 204);
    expectStatus(await call('delete', one, { user: cy }), 404);
    expectEveryOperationAnswered(answeredByWebhooksSuite);
  });
});

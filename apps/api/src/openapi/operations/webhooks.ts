import {
  createWebhookBody,
  deliveriesQuery,
  patchWebhookBody,
  rotateSecretBody,
} from '../../webhooks/webhook.schemas';
import { WEBHOOK_BOUNDS } from '../../webhooks/webhook-bounds';
import { noContent, page } from './shapes';
import type { Operation } from './types';

const BASE = '/v1/groups/{groupId}/webhooks';
const ONE = `${BASE}/{webhookId}`;
const TAG = 'Webhooks';
const WHO =
  'Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no ' +
  '`Idempotency-Key`, no event in the log.';

/** Webhooks (API.md §12): endpoints a group's events are sent to, signed (Standard Webhooks). */
export const webhooksOperations: Operation[] = [
  {
    method: 'post',
    path: BASE,
    operationId: 'createWebhook',
    tag: TAG,
    summary: 'Register a webhook endpoint',
    description:
      'The events the group appends from now on are sent to `url` (API.md §12.2), signed with the `secret` ' +
      'of the answer, which is shown this once. With `WEBHOOK_ALLOW_PRIVATE_ADDRESSES` off, an IP literal ' +
      'or `localhost` of a private, loopback or link-local network is `422 validation_failed`. A group has ' +
      `at most ${WEBHOOK_BOUNDS.endpointsPerGroup} endpoints (\`422 limit_exceeded\`, \`endpointsPerGroup\`). ${WHO}`,
    body: createWebhookBody,
    success: [
      {
        status: 201,
        description: 'The endpoint, with its secret',
        schema: 'WebhookWithSecret',
        headers: ['Location'],
      },
    ],
    errors: ['limit_exceeded'],
  },
  {
    method: 'get',
    path: BASE,
    operationId: 'listWebhooks',
    tag: TAG,
    summary: "A group's webhook endpoints",
    description: `Oldest first, all of them on one page (at most ${WEBHOOK_BOUNDS.endpointsPerGroup}). ${WHO}`,
    success: [page('WebhookPage', 'webhook endpoints')],
  },
  {
    method: 'get',
    path: ONE,
    operationId: 'getWebhook',
    tag: TAG,
    summary: 'A webhook endpoint',
    description: `Its state, and why it is disabled when it is (\`disabledReason\`). ${WHO}`,
    success: [{ status: 200, description: 'The endpoint', schema: 'Webhook' }],
  },
  {
    method: 'patch',
    path: ONE,
    operationId: 'patchWebhook',
    tag: TAG,
    summary: 'Change a webhook endpoint',
    description:
      '`enabled: true` on a disabled endpoint starts it again at the event it stopped on, with a new retry ' +
      `window. ${WHO}`,
    body: patchWebhookBody,
    success: [{ status: 200, description: 'The endpoint', schema: 'Webhook' }],
  },
  {
    method: 'delete',
    path: ONE,
    operationId: 'deleteWebhook',
    tag: TAG,
    summary: 'Delete a webhook endpoint',
    description: `With its delivery log; an attempt under way may still arrive. ${WHO}`,
    success: noContent('Deleted'),
  },
  {
    method: 'post',
    path: `${ONE}/rotate-secret`,
    operationId: 'rotateWebhookSecret',
    tag: TAG,
    summary: "Rotate a webhook endpoint's secret",
    description:
      'A new secret, shown this once; the one it replaces still signs every delivery (a second ' +
      '`v1,` signature in `webhook-signature`) for `previousSecretSeconds`. Rotating again replaces ' +
      `the previous secret. ${WHO}`,
    body: rotateSecretBody,
    success: [{ status: 200, description: 'The endpoint, with its new secret', schema: 'WebhookWithSecret' }],
  },
  {
    method: 'get',
    path: `${ONE}/deliveries`,
    operationId: 'listWebhookDeliveries',
    tag: TAG,
    summary: "A webhook endpoint's delivery log",
    description:
      'Newest event first: each delivery’s status, attempts, last answer and latency, and its next try. ' +
      `The newest ${WEBHOOK_BOUNDS.deliveriesKept} are kept. ${WHO}`,
    query: deliveriesQuery,
    success: [page('WebhookDeliveryPage', 'deliveries')],
  },
  {
    method: 'post',
    path: `${ONE}/deliveries/{deliveryId}/resend`,
    operationId: 'resendWebhookDelivery',
    tag: TAG,
    summary: 'Send a delivery again',
    description:
      'Once more, with the same `webhook-id` and body, soon (by whichever API process serves the endpoint ' +
      'next), ahead of the endpoint’s own order. A disabled endpoint is `422 validation_failed`: enable it ' +
      `first. ${WHO}`,
    success: [
      { status: 202, description: 'The delivery, `resendRequested: true`', schema: 'WebhookDelivery' },
    ],
  },
];

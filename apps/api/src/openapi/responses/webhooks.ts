import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, pageOf, timestamp } from './common';
import { EVENT_TYPE_NAMES } from './events';

const nullableTime: JsonSchema = { ...timestamp, type: ['string', 'null'] };
const eventType: JsonSchema = { type: 'string', enum: [...EVENT_TYPE_NAMES] };

const webhookFields = {
  id: {
    type: 'string',
    description: 'Webhook id: `whk_` followed by a ULID',
    examples: ['whk_01JD3Q8Z4T6Y5W2N8K1M0PX7RC'],
  },
  groupId: id('grp', 'Group'),
  url: { type: 'string' },
  description: { type: 'string' },
  eventTypes: { type: 'array', items: eventType, description: 'Empty: every event type' },
  enabled: { type: 'boolean' },
  disabledReason: {
    type: ['string', 'null'],
    description: 'Why it is disabled (its failures over the retry window, a member, its creator leaving)',
  },
  disabledAt: nullableTime,
  deliveredSeq: {
    type: 'integer',
    minimum: 0,
    description: 'Every event of the group up to this seq is done (delivered, or not of its types)',
  },
  skippedEvents: {
    type: 'integer',
    minimum: 0,
    description: 'Events retention dropped before they were sent (API.md §12.3)',
  },
  previousSecretExpiresAt: { ...nullableTime, description: 'Until when the rotated-out secret still signs' },
  createdBy: id('usr', 'User'),
  createdAt: timestamp,
  updatedAt: timestamp,
} satisfies Record<string, JsonSchema>;

const Webhook: JsonSchema = closed(webhookFields);
const WebhookWithSecret: JsonSchema = closed({
  ...webhookFields,
  secret: {
    type: 'string',
    pattern: '^whsec_[A-Za-z0-9+/=]+$',
    description: 'The signing secret (Standard Webhooks), shown only here',
  },
});
const WebhookDelivery: JsonSchema = closed({
  id: { type: 'string', description: 'The `webhook-id` header of every attempt of this delivery' },
  endpointId: { type: 'string' },
  seq: { type: 'integer', minimum: 1 },
  eventType,
  status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
  attempts: { type: 'integer', minimum: 0 },
  lastStatusCode: { type: ['integer', 'null'] },
  lastError: { type: ['string', 'null'] },
  lastLatencyMs: { type: ['integer', 'null'], minimum: 0 },
  lastAttemptAt: nullableTime,
  nextAttemptAt: { ...nullableTime, description: 'When the next attempt is due, while it is pending' },
  resendRequested: { type: 'boolean' },
  createdAt: timestamp,
});

/** Webhooks (API.md §12). */
export const webhookSchemas: Record<string, JsonSchema> = {
  Webhook,
  WebhookWithSecret,
  WebhookPage: pageOf('Webhook'),
  WebhookDelivery,
  WebhookDeliveryPage: pageOf('WebhookDelivery'),
};

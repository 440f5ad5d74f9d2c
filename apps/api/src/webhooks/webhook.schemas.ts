import Joi from 'joi';
import { EVENT_TYPE_NAMES } from '../openapi/responses/events';
import { freeText } from '../schemas';
import { WEBHOOK_BOUNDS } from './webhook-bounds';

/** Request schemas of the webhook endpoints (API.md §12): the routes validate with these, the document states them. */

const url = Joi.string()
  .max(WEBHOOK_BOUNDS.urlLength)
  .description(
    `An absolute \`http:\` or \`https:\` URL, at most ${WEBHOOK_BOUNDS.urlLength} characters, without credentials`,
  )
  .example('https://example.com/tally-hooks');
const eventTypes = Joi.array()
  .items(Joi.string().valid(...EVENT_TYPE_NAMES))
  .max(WEBHOOK_BOUNDS.eventTypesPerEndpoint)
  .unique()
  .description('The event types sent to it; empty or absent: every type');

export const createWebhookBody = Joi.object({
  url: url.required(),
  description: freeText(WEBHOOK_BOUNDS.descriptionLength, { allowEmpty: true }),
  eventTypes,
}).label('CreateWebhookRequest');

export const patchWebhookBody = Joi.object({
  url,
  description: freeText(WEBHOOK_BOUNDS.descriptionLength, { allowEmpty: true }),
  eventTypes,
  enabled: Joi.boolean()
    .strict()
    .description('`false` stops its deliveries; `true` starts them again where they stopped'),
})
  .min(1)
  .label('PatchWebhookRequest');

export const rotateSecretBody = Joi.object({
  previousSecretSeconds: Joi.number()
    .strict()
    .integer()
    .min(0)
    .max(WEBHOOK_BOUNDS.maxPreviousSecretSeconds)
    .default(86_400)
    .description('How long the secret it replaces still signs, in seconds (0–604800)'),
}).label('RotateWebhookSecretRequest');

export const deliveriesQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(100).default(20),
  cursor: Joi.string()
    .max(500)
    .description('The `nextCursor` of the previous page, exactly as given; anything else is 422'),
}).label('WebhookDeliveriesQuery');

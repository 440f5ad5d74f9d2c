import Joi from 'joi';

/** A whole number in a range with a default (the shape of config.ts's `integer`). */
const integer = (min: number, max: number, fallback: number, meaning: string) =>
  Joi.number().integer().min(min).max(max).default(fallback).description(meaning);

/** The variables of notifications (API.md §12), a group of docs/API.md §10. */
export const notificationVariables = {
  VAPID_PUBLIC_KEY: Joi.string<string | undefined>()
    .pattern(/^[A-Za-z0-9_-]{80,100}$/)
    .empty('')
    .description(
      'The VAPID public key push is signed with (RFC 8292; base64url, as `npx web-push generate-vapid-keys` prints it). Set with `VAPID_PRIVATE_KEY`, both or neither; every process of a deployment the same, for good (browsers subscribe with it). Neither: generated once and kept in `DATA_DIR/vapid-keys.json` (the embedded default).',
    ),
  VAPID_PRIVATE_KEY: Joi.string<string | undefined>()
    .pattern(/^[A-Za-z0-9_-]{40,50}$/)
    .empty('')
    .description('The VAPID private key (base64url), with `VAPID_PUBLIC_KEY`.'),
  VAPID_SUBJECT: Joi.string()
    .pattern(/^(mailto:|https:\/\/)\S+$/)
    .max(300)
    .default('mailto:no-reply@tally.invalid')
    .description(
      'How push services reach the operator (`mailto:` or `https:` URL), sent in every VAPID token.',
    ),
  NOTIFY_POLL_MS: integer(
    0,
    3_600_000,
    2000,
    'How often each API process turns new events into notifications, queues the weekly digests and sends what is due (API.md §12), in ms; every process does, without a leader. `0`: this process sends none.',
  ),
  PUSH_TIMEOUT_MS: integer(
    100,
    60_000,
    10_000,
    '100–60000: a push service that has not answered within this long counts as failed (retried later).',
  ),
  PUSH_ALLOW_PRIVATE_ENDPOINTS: Joi.boolean()
    .default(false)
    .description(
      'Whether push endpoints may be plain `http` and resolve to loopback, private or link-local addresses. Off (the default), such a subscription is refused or never reached: endpoints are URLs clients give. For tests and a push service inside the network.',
    ),
};

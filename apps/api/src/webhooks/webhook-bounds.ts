/**
 * The bounds of webhooks (API.md §9.1, §12): what one group, one endpoint and one delivery may cost.
 */
export const WEBHOOK_BOUNDS = {
  /** Endpoints one group may have (enabled or not). */
  endpointsPerGroup: 10,
  /** Event types one endpoint names (there are 21; none named: all of them). */
  eventTypesPerEndpoint: 25,
  /** An endpoint's URL, in characters. */
  urlLength: 2048,
  /** An endpoint's description, in characters. */
  descriptionLength: 200,
  /** A delivery's body: an event whose JSON is larger is sent without its `data` (`truncated: true`). */
  payloadBytes: 256 * 1024,
  /** Deliveries kept in an endpoint's log (the newest). */
  deliveriesKept: 1000,
  /** The receiver's answer read at most (the status decides). */
  responseBytes: 64 * 1024,
  /** Events one claim of an endpoint sends at most before it lets others have a turn. */
  batchSize: 50,
  /** The longest `Retry-After` honoured; a longer one waits this long. */
  maxRetryAfterMs: 3_600_000,
  /** How long a rotated-out secret still signs, at most (`previousSecretSeconds`). */
  maxPreviousSecretSeconds: 7 * 86_400,
} as const;

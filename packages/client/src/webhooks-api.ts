import type { components } from './generated/openapi.js';
import type { CallOptions, HttpClient } from './http-client.js';
import type { ListOptions, Page } from './types.js';

type Schemas = components['schemas'];

/** A webhook endpoint of a group (API.md §12.1). */
export type WebhookEndpoint = Schemas['Webhook'];
/** An endpoint as created or rotated: with its secret (`whsec_…`), shown only then. */
export type WebhookEndpointWithSecret = Schemas['WebhookWithSecret'];
/** One entry of an endpoint's delivery log: status, attempts, last answer, next try. */
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookEndpointRequest = components['schemas']['CreateWebhookRequest'];
export type WebhookEndpointPatch = components['schemas']['PatchWebhookRequest'];

const webhooksPath = (groupId: string) => `/v1/groups/${encodeURIComponent(groupId)}/webhooks`;
const webhookPath = (groupId: string, webhookId: string) =>
  `${webhooksPath(groupId)}/${encodeURIComponent(webhookId)}`;

/**
 * A group's webhook endpoints (API.md §12), which any member manages. They are the group's
 * configuration, not writes to its log: no `Idempotency-Key` is sent, and a create that failed in
 * transit is not retried by the client (it might make a second endpoint): list to see.
 */
export class WebhooksApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  private async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: CallOptions,
    body?: unknown,
    query?: Record<string, string | number | undefined>,
  ): Promise<T> {
    return (
      await this.http.request<T>({
        ...options,
        method,
        path,
        body,
        query,
        idempotencyKey: false,
        ...(method === 'POST' ? { retry: { maxAttempts: 1, ...options.retry } } : {}),
      })
    ).data;
  }

  /** `POST …/webhooks`: the events from now on go to `url`; keep `secret`, it is shown once. */
  create(
    groupId: string,
    body: WebhookEndpointRequest,
    options: CallOptions = {},
  ): Promise<WebhookEndpointWithSecret> {
    return this.call('POST', webhooksPath(groupId), options, body);
  }

  /** `GET …/webhooks`: every endpoint of the group (at most 10), oldest first. */
  async list(groupId: string, options: CallOptions = {}): Promise<WebhookEndpoint[]> {
    return (await this.call<Page<WebhookEndpoint>>('GET', webhooksPath(groupId), options)).data;
  }

  /** `GET …/webhooks/{webhookId}`: its state; `disabledReason` says why it stopped. */
  get(groupId: string, webhookId: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return this.call('GET', webhookPath(groupId, webhookId), options);
  }

  /** `PATCH …/webhooks/{webhookId}`; `enabled: true` starts a disabled one again where it stopped. */
  update(
    groupId: string,
    webhookId: string,
    patch: WebhookEndpointPatch,
    options: CallOptions = {},
  ): Promise<WebhookEndpoint> {
    return this.call('PATCH', webhookPath(groupId, webhookId), options, patch);
  }

  /** `DELETE …/webhooks/{webhookId}`, with its delivery log. */
  async delete(groupId: string, webhookId: string, options: CallOptions = {}): Promise<void> {
    await this.call('DELETE', webhookPath(groupId, webhookId), options);
  }

  /**
   * `POST …/rotate-secret`: a new secret (shown once); the old one still signs for
   * `previousSecretSeconds` (server default 1 day), so receivers can switch without a gap.
   */
  rotateSecret(
    groupId: string,
    webhookId: string,
    body: { previousSecretSeconds?: number } = {},
    options: CallOptions = {},
  ): Promise<WebhookEndpointWithSecret> {
    return this.call('POST', `${webhookPath(groupId, webhookId)}/rotate-secret`, options, body);
  }

  /** `GET …/deliveries`: one page of the delivery log, newest event first. */
  deliveries(
    groupId: string,
    webhookId: string,
    options: ListOptions & CallOptions = {},
  ): Promise<Page<WebhookDelivery>> {
    const { limit, cursor, ...call } = options;
    return this.call('GET', `${webhookPath(groupId, webhookId)}/deliveries`, call, undefined, {
      limit,
      cursor,
    });
  }

  /** `POST …/deliveries/{deliveryId}/resend`: sent once more soon, with the same `webhook-id`. */
  resend(
    groupId: string,
    webhookId: string,
    deliveryId: string,
    options: CallOptions = {},
  ): Promise<WebhookDelivery> {
    return this.call(
      'POST',
      `${webhookPath(groupId, webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
      options,
    );
  }
}

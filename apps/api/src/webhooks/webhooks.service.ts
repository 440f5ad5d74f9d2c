import { runSql, sql } from '@tally/db';
import { AppError, limitExceeded, notFound, validationFailed } from '@tally/http-kit';
import type { Knex } from 'knex';
import { pageOf } from '../http/cursor';
import { refusedAddress } from '../http/refused-address';
import { ulidFactory } from '../ids';
import { newSecret } from './signing';
import { WEBHOOK_BOUNDS } from './webhook-bounds';

/** An endpoint as the API shows it (API.md §12.1); its secret only on creation and rotation. */
export type WebhookEndpoint = {
  id: string;
  groupId: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  eventTypes: string[];
  enabled: boolean;
  /** Why the endpoint was disabled (by its failures, or its creator leaving), null when enabled. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** Every event of the group up to this seq is done (delivered, or not of the endpoint's types). */
  deliveredSeq: number;
  /** Events the endpoint never got because retention dropped them before it was sent them (API.md §12.3). */
  skippedEvents: number;
  /** Until when the previous secret still signs after a rotation, null when there is none. */
  previousSecretExpiresAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
};

export type WebhookDelivery = {
  /** The `webhook-id`: the same for every attempt of this event to this endpoint. */
  id: string;
  endpointId: string;
  seq: number;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  /** A "send again" is waiting for its turn. */
  resendRequested: boolean;
  createdAt: string;
};

export type EndpointRow = {
  id: string;
  group_id: string;
  created_by: string;
  url: string;
  description: string;
  event_types: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  delivered_seq: string | number;
  skipped_events: string | number;
  created_at: Date | string;
  updated_at: Date | string;
};

type DeliveryRow = {
  id: string;
  endpoint_id: string;
  seq: string | number;
  event_type: string;
  body: string;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
  resend: boolean;
  created_at: Date | string;
};

const iso = (at: Date | string | null): string | null => (at === null ? null : new Date(at).toISOString());

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  groupId: row.group_id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  disabledAt: iso(row.disabled_at),
  deliveredSeq: Number(row.delivered_seq),
  skippedEvents: Number(row.skipped_events),
  previousSecretExpiresAt: iso(row.previous_secret_expires_at),
  createdBy: row.created_by,
  createdAt: iso(row.created_at) as string,
  updatedAt: iso(row.updated_at) as string,
});

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  seq: Number(row.seq),
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastLatencyMs: row.last_latency_ms,
  lastAttemptAt: iso(row.last_attempt_at),
  nextAttemptAt: iso(row.next_attempt_at),
  resendRequested: row.resend,
  createdAt: iso(row.created_at) as string,
});

/**
 * A URL a webhook may be registered with: `http:` or `https:`, no credentials in it, and (unless
 * private addresses are allowed) not an IP literal or `localhost` that the sender would refuse
 * anyway. A name is checked again at every attempt, on the addresses it resolves to then.
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean): string {
  const refuse = (message: string) => validationFailed([{ path: 'url', message }], `url ${message}.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('must be http: or https:');
  if (url.username !== '' || url.password !== '') throw refuse('must not carry credentials');
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const why = host === 'localhost' || host.endsWith('.localhost') ? 'loopback' : refusedAddress(host);
    if (why !== undefined && why !== 'not an IP address') throw refuse(`names a ${why} address`);
  }
  return url.toString();
}

export type CreateWebhookInput = { url: string; description?: string; eventTypes?: string[] };
export type PatchWebhookInput = Partial<CreateWebhookInput> & { enabled?: boolean };

const isMember = (groupId: string, userId: string) =>
  sql`exists (select 1 from group_members m where m.group_id = ${groupId} and m.user_id = ${userId})`;

/**
 * Webhook endpoints of a group (API.md §12): any current member manages them (docs/DECISIONS.md),
 * someone else gets `404` as for every group resource.
 */
export function createWebhooksService(deps: { knex: Knex; allowPrivateAddresses: boolean }) {
  const { knex } = deps;
  const ulid = ulidFactory();

  async function assertMember(groupId: string, userId: string): Promise<void> {
    const [row] = await runSql<{ member: boolean }>(knex, sql`select ${isMember(groupId, userId)} as member`);
    if (!row?.member) throw notFound('Group');
  }

  /** The endpoint `id` of `groupId` when `userId` is a member of the group; else 404. */
  async function endpointRow(userId: string, groupId: string, id: string): Promise<EndpointRow> {
    const [row] = await runSql<EndpointRow>(
      knex,
      sql`select w.* from webhook_endpoints w
           where w.id = ${id} and w.group_id = ${groupId} and ${isMember(groupId, userId)}`,
    );
    if (!row) throw notFound('Webhook');
    return row;
  }

  const checkUrl = (url: string) => checkWebhookUrl(url, deps.allowPrivateAddresses);

  return {
    async create(
      userId: string,
      groupId: string,
      input: CreateWebhookInput,
    ): Promise<WebhookEndpoint & { secret: string }> {
      const url = checkUrl(input.url);
      await assertMember(groupId, userId);
      const id = `whk_${ulid()}`;
      const secret = newSecret();
      const max = WEBHOOK_BOUNDS.endpointsPerGroup;
      // One statement: the count and the insert see the same rows; the group's row lock (`for
      // update`) makes two creations at once take turns, so the bound holds under a race too.
      const [row] = await runSql<EndpointRow>(
        knex,
        sql`with g as (select id, last_seq from groups where id = ${groupId} for update),
                 n as (select count(*)::int as count from webhook_endpoints where group_id = ${groupId})
            insert into webhook_endpoints (id, group_id, created_by, url, description, event_types, secret,
                                           delivered_seq, created_at, updated_at)
            select ${id}::text, g.id, ${userId}::text, ${url}::text, ${input.description ?? ''}::text,
                   ${input.eventTypes ?? []}::text[], ${secret}::text, g.last_seq, now(), now()
              from g, n where n.count < ${max}
            returning *`,
      );
      if (!row) {
        throw limitExceeded(
          'endpointsPerGroup',
          max,
          `A group has at most ${max} webhook endpoints (\`endpointsPerGroup\`).`,
        );
      }
      return { ...toEndpoint(row), secret };
    },

    async list(userId: string, groupId: string): Promise<{ data: WebhookEndpoint[]; nextCursor: null }> {
      await assertMember(groupId, userId);
      const rows = await runSql<EndpointRow>(
        knex,
        sql`select * from webhook_endpoints where group_id = ${groupId} order by created_at, id`,
      );
      return { data: rows.map(toEndpoint), nextCursor: null };
    },

    async get(userId: string, groupId: string, id: string): Promise<WebhookEndpoint> {
      return toEndpoint(await endpointRow(userId, groupId, id));
    },

    /**
     * Changes what is given. `enabled: true` on a disabled endpoint starts it again where it stopped:
     * the event it failed on first, with a new retry window (its attempts count from 0 again).
     */
    async patch(
      userId: string,
      groupId: string,
      id: string,
      patch: PatchWebhookInput,
    ): Promise<WebhookEndpoint> {
      const url = patch.url === undefined ? undefined : checkUrl(patch.url);
      const before = await endpointRow(userId, groupId, id);
      const reenable = patch.enabled === true && !before.enabled;
      const [row] = await runSql<EndpointRow>(
        knex,
        sql`update webhook_endpoints set
              url = coalesce(${url ?? null}::text, url),
              description = coalesce(${patch.description ?? null}::text, description),
              event_types = coalesce(${patch.eventTypes ?? null}::text[], event_types),
              enabled = coalesce(${patch.enabled ?? null}::boolean, enabled),
              disabled_reason = case when ${patch.enabled ?? null}::boolean is null then disabled_reason
                                     when ${patch.enabled ?? null}::boolean then null
                                     else 'Disabled by a member of the group.' end,
              disabled_at = case when ${patch.enabled ?? null}::boolean is null then disabled_at
                                 when ${patch.enabled ?? null}::boolean then null
                                 else coalesce(disabled_at, now()) end,
              retry_at = case when ${reenable}::boolean then null else retry_at end,
              updated_at = now()
            where id = ${id} and group_id = ${groupId}
            returning *`,
      );
      if (!row) throw notFound('Webhook');
      if (reenable) {
        await runSql(
          knex,
          sql`update webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = null
               where endpoint_id = ${id} and status = 'failed' and seq > ${before.delivered_seq}`,
        );
      }
      return toEndpoint(row);
    },

    async remove(userId: string, groupId: string, id: string): Promise<void> {
      await endpointRow(userId, groupId, id);
      await runSql(knex, sql`delete from webhook_endpoints where id = ${id} and group_id = ${groupId}`);
    },

    /**
     * A new secret; the one it replaces still signs (a second signature in `webhook-signature`) for
     * `previousSecretSeconds`, so that receivers can switch without missing a delivery.
     */
    async rotateSecret(
      userId: string,
      groupId: string,
      id: string,
      previousSecretSeconds: number,
    ): Promise<WebhookEndpoint & { secret: string }> {
      await endpointRow(userId, groupId, id);
      const secret = newSecret();
      const [row] = await runSql<EndpointRow>(
        knex,
        sql`update webhook_endpoints set previous_secret = secret, secret = ${secret},
              previous_secret_expires_at = now() + ${previousSecretSeconds}::float8 * interval '1 second',
              updated_at = now()
            where id = ${id} and group_id = ${groupId} returning *`,
      );
      if (!row) throw notFound('Webhook');
      return { ...toEndpoint(row), secret };
    },

    /** The endpoint's delivery log, newest event first, one page (`cursor`: the last seq seen). */
    async deliveries(
      userId: string,
      groupId: string,
      id: string,
      query: { limit: number; beforeSeq: number | undefined },
    ) {
      await endpointRow(userId, groupId, id);
      const rows = await runSql<DeliveryRow>(
        knex,
        sql`select * from webhook_deliveries
             where endpoint_id = ${id} and seq < ${query.beforeSeq ?? Number.MAX_SAFE_INTEGER}
             order by seq desc limit ${query.limit + 1}`,
      );
      const page = pageOf(rows, query.limit, (row) => [Number(row.seq)]);
      return { data: page.data.map(toDelivery), nextCursor: page.nextCursor };
    },

    /**
     * "Send again": the delivery is sent once more, with the same `webhook-id`, ahead of the
     * endpoint's order (it is an old event), by whichever process claims the endpoint next.
     */
    async resend(userId: string, groupId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await endpointRow(userId, groupId, id);
      if (!endpoint.enabled) {
        throw new AppError('validation_failed', 422, 'The webhook is disabled: enable it first.', {
          errors: [{ path: 'enabled', message: 'is false' }],
        });
      }
      const [row] = await runSql<DeliveryRow>(
        knex,
        sql`update webhook_deliveries set resend = true
             where id = ${deliveryId} and endpoint_id = ${id} returning *`,
      );
      if (!row) throw notFound('Delivery');
      return toDelivery(row);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
export type { DeliveryRow };
export { toDelivery };

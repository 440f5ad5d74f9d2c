import { randomUUID } from 'node:crypto';
import { runSql, sql } from '@tally/db';
import { createEventLog, type GroupEvent } from '@tally/events';
import type { Knex } from 'knex';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { OnIgnoredError } from '../ledger/write-runner';
import { type AttemptResult, type SendOptions, sendWebhook } from './send-webhook';
import { signatureOf } from './signing';
import { WEBHOOK_BOUNDS } from './webhook-bounds';
import type { DeliveryRow, EndpointRow } from './webhooks.service';

/** Svix's schedule (API.md §12.3): about 28 hours from the first failure to the last attempt. */
export const DEFAULT_RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export type WebhookDispatcherOptions = {
  knex: Knex;
  /** How often this process looks for endpoints with work (besides `poke`), in ms; 0: it sends none. */
  pollMs: number;
  /** Endpoints this process serves at once. */
  concurrency: number;
  /** How long a claim of an endpoint lasts without renewal (a dead process's claims lapse after it). */
  leaseMs: number;
  /** The wait after the 1st, 2nd… failed attempt of one delivery; after the last, the endpoint is disabled. */
  retryDelaysMs: readonly number[];
  send: SendOptions;
  registry?: Registry;
  onIgnoredError?: OnIgnoredError;
};

type Claimed = EndpointRow & {
  creator_is_member: boolean;
  has_resend: boolean;
  previous_valid: boolean;
  due: boolean;
  group_seq: string | number;
};

/** The groups with endpoints a process keeps in memory (for its writes' hints), at most. */
const MAX_HOOKED_GROUPS = 10_000;
/** Polls between two readings of those groups (a new endpoint meanwhile is found by the polls). */
const HOOKED_REFRESH_POLLS = 4;

/** A wait with ±20 % jitter, so that endpoints failing together do not retry together. */
const jittered = (ms: number): number => Math.round(ms * (0.8 + Math.random() * 0.4));

/** The `webhook-id` of event `seq` to endpoint `endpointId`: the same for every attempt, in any process. */
export const deliveryIdOf = (endpointId: string, seq: number): string =>
  `msg_${endpointId.replace(/^whk_/, '')}_${seq}`;

/**
 * The body of a delivery (API.md §12.2), Standard Webhooks' `{type, timestamp, data}` with the event
 * as `GET /v1/groups/{groupId}/events` shows it; one larger than `payloadBytes` goes without its
 * `data` (`truncated: true`), which the receiver reads from the log.
 */
export function payloadOf(event: GroupEvent): string {
  const full = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event });
  if (Buffer.byteLength(full) <= WEBHOOK_BOUNDS.payloadBytes) return full;
  const { data: _dropped, ...rest } = event;
  return JSON.stringify({
    type: event.type,
    timestamp: event.occurredAt,
    data: { ...rest, truncated: true },
  });
}

/**
 * Sends webhooks from the durable event log (API.md §12.3) in every API process, no leader. A round
 * claims endpoints that have work (events past their cursor `delivered_seq`, a due retry, or a
 * "send again"), with `for update skip locked` and a lease, so one endpoint is served by one process
 * at a time: that is what keeps its deliveries in seq order. A served endpoint gets its resends,
 * then its events in order, at most `batchSize` a claim, each sent until a 2xx or its schedule runs
 * out; the first failure stops the endpoint until its retry is due (later events wait behind it).
 *
 * At least once: the cursor moves only after the 2xx, in the statement that also renews the lease
 * (a process that lost its lease stops). A process killed between the 2xx and that statement sends
 * the event again once the lease lapses, with the same `webhook-id` (derived from endpoint and seq).
 * Nothing here reads Redis: `poke` (a local write's hint) only makes the next round come sooner.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions) {
  const { knex, leaseMs, retryDelaysMs } = options;
  const owner = `${process.pid}-${randomUUID()}`;
  const log = createEventLog({ knex });
  const ignored: OnIgnoredError = options.onIgnoredError ?? (() => {});
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts of this process, by outcome (ok, failed)',
    labelNames: ['outcome'],
    registers: options.registry ? [options.registry] : [],
  });
  const lag = new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'From an event (occurredAt) to the 2xx of its first successful delivery to an endpoint',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 600, 3600, 86_400],
    registers: options.registry ? [options.registry] : [],
  });
  const lease = sql`now() + ${leaseMs}::float8 * interval '1 millisecond'`;

  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  /**
   * The groups with an enabled endpoint, read every `HOOKED_REFRESH_POLLS` polls: a write to another
   * group wakes no round (most writes), so the hint costs nothing where there are no webhooks. Past
   * `MAX_HOOKED_GROUPS` of them, every write wakes a round (claiming only its group's endpoints).
   */
  let hookedGroups: Set<string> | 'all' = new Set<string>();
  let polls = 0;
  const refreshHookedGroups = async () => {
    const rows = await runSql<{ group_id: string }>(
      knex,
      sql`select group_id from webhook_endpoints where enabled group by group_id limit ${MAX_HOOKED_GROUPS + 1}`,
    );
    hookedGroups = rows.length > MAX_HOOKED_GROUPS ? 'all' : new Set(rows.map((row) => row.group_id));
  };
  let kicked = false;
  /** The groups of the endpoints being served (how many), and those of them written meanwhile. */
  const servingGroups = new Map<string, number>();
  const missed = new Set<string>();
  let rounding: Promise<void> | undefined;
  const serving = new Set<Promise<void>>();

  /** Claims endpoints with work, of `groups` only (the groups just written) or of any group. */
  const claim = (limit: number, groups: readonly string[] | undefined) =>
    runSql<Claimed>(
      knex,
      sql`update webhook_endpoints w set lease_owner = ${owner}, lease_until = ${lease}
          from (select e.id, g.last_seq from webhook_endpoints e join groups g on g.id = e.group_id
                 where e.enabled and (e.lease_owner is null or e.lease_until < now())
                   ${groups === undefined ? sql`` : sql`and e.group_id = any(${groups}::text[])`}
                   and ((g.last_seq > e.delivered_seq and (e.retry_at is null or e.retry_at <= now()))
                        or exists (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.resend))
                 order by e.lease_until nulls first
                 limit ${limit}
                 for update of e skip locked) c
          where w.id = c.id
          returning w.*, c.last_seq as group_seq,
            exists (select 1 from webhook_deliveries d where d.endpoint_id = w.id and d.resend) as has_resend,
            (w.retry_at is null or w.retry_at <= now()) as due,
            coalesce(w.previous_secret_expires_at > now(), false) as previous_valid,
            exists (select 1 from group_members m join users u on u.id = m.user_id
                     where m.group_id = w.group_id and m.user_id = w.created_by and u.status = 'active')
              as creator_is_member`,
    );

  const release = (id: string) =>
    runSql(
      knex,
      sql`update webhook_endpoints set lease_owner = null, lease_until = now()
           where id = ${id} and lease_owner = ${owner}`,
    );

  const disable = (id: string, reason: string) =>
    runSql(
      knex,
      sql`update webhook_endpoints set enabled = false, disabled_reason = ${reason}, disabled_at = now(),
            retry_at = null, updated_at = now()
           where id = ${id} and lease_owner = ${owner}`,
    );

  /** One attempt of one delivery, signed with the endpoint's secrets now. */
  async function attempt(endpoint: Claimed, id: string, body: string): Promise<AttemptResult> {
    const secrets =
      endpoint.previous_valid && endpoint.previous_secret
        ? [endpoint.secret, endpoint.previous_secret]
        : [endpoint.secret];
    const timestamp = Math.floor(Date.now() / 1000);
    const result = await sendWebhook(
      endpoint.url,
      {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureOf(secrets, id, timestamp, body),
      },
      body,
      options.send,
    );
    attempts.inc({ outcome: result.ok ? 'ok' : 'failed' });
    return result;
  }

  const outcome = (r: AttemptResult) =>
    sql`attempts = attempts + 1, last_status_code = ${r.status ?? null}::int, last_error = ${r.error ?? null}::text,
        last_latency_ms = ${r.latencyMs}::int, last_attempt_at = now()`;

  /** Its "send again"s, each once (outside the endpoint's order: they are old events). */
  async function resend(endpoint: Claimed): Promise<boolean> {
    const rows = await runSql<DeliveryRow>(
      knex,
      sql`select * from webhook_deliveries where endpoint_id = ${endpoint.id} and resend order by seq limit 10`,
    );
    for (const row of rows) {
      const r = await attempt(endpoint, row.id, row.body);
      const [held] = await runSql(
        knex,
        sql`with d as (update webhook_deliveries set ${outcome(r)}, resend = false,
                         status = case when ${r.ok}::boolean then 'succeeded' else status end
                       where id = ${row.id})
            update webhook_endpoints set lease_until = ${lease}
             where id = ${endpoint.id} and lease_owner = ${owner} returning id`,
      );
      if (!held) return false;
    }
    return true;
  }

  /**
   * After a failed attempt (recorded in `delivery`, its `attempts` counting it): the next one
   * scheduled, or the endpoint disabled once the schedule ran out.
   */
  async function failed(endpoint: Claimed, delivery: DeliveryRow, r: AttemptResult): Promise<void> {
    const count = delivery.attempts;
    const planned = retryDelaysMs[count - 1];
    if (planned === undefined) {
      const hours = retryDelaysMs.reduce((a, b) => a + b, 0) / 3_600_000;
      await runSql(
        knex,
        sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ${delivery.id}`,
      );
      await disable(
        endpoint.id,
        `Disabled after ${count} failed attempts over ${hours.toFixed(1)} h to deliver event ${delivery.seq}; the last one: ${r.error}.`,
      );
      return;
    }
    // The receiver's Retry-After, when it gives one, within bounds; otherwise the schedule's wait.
    const waitMs =
      r.retryAfterMs !== undefined
        ? Math.min(r.retryAfterMs, WEBHOOK_BOUNDS.maxRetryAfterMs)
        : jittered(planned);
    const at = sql`now() + ${waitMs}::float8 * interval '1 millisecond'`;
    await runSql(
      knex,
      sql`with d as (update webhook_deliveries set next_attempt_at = ${at} where id = ${delivery.id})
          update webhook_endpoints set retry_at = ${at} where id = ${endpoint.id} and lease_owner = ${owner}`,
    );
  }

  /**
   * The delivery of `event` with the attempt just made: inserted (its first attempt) or counted on
   * (a retry), in one statement.
   */
  const recorded = (endpoint: Claimed, event: GroupEvent, id: string, body: string, r: AttemptResult) =>
    sql`insert into webhook_deliveries as d (id, endpoint_id, seq, event_type, body, status, attempts,
                                             last_status_code, last_error, last_latency_ms, last_attempt_at, created_at)
        values (${id}, ${endpoint.id}, ${event.seq}, ${event.type}, ${body},
                ${r.ok ? 'succeeded' : 'pending'}, 1, ${r.status ?? null}::int, ${r.error ?? null}::text,
                ${r.latencyMs}::int, now(), now())
        on conflict (endpoint_id, seq) do update set status = excluded.status, attempts = d.attempts + 1,
          last_status_code = excluded.last_status_code, last_error = excluded.last_error,
          last_latency_ms = excluded.last_latency_ms, last_attempt_at = now(), next_attempt_at = null
        returning *`;

  /** Moves the cursor past events it need not send (other types, or already sent); false: lease lost. */
  async function advance(endpoint: Claimed, seq: number, skipped = 0): Promise<boolean> {
    const [held] = await runSql(
      knex,
      sql`update webhook_endpoints set delivered_seq = greatest(delivered_seq, ${seq}::bigint),
            skipped_events = skipped_events + ${skipped}::bigint, lease_until = ${lease}
           where id = ${endpoint.id} and lease_owner = ${owner} returning id`,
    );
    return held !== undefined;
  }

  /** Its next events in order, until one fails or the batch is done; true: it may have more now. */
  async function sendInOrder(endpoint: Claimed, turn: { released: boolean }): Promise<boolean> {
    let cursor = Number(endpoint.delivered_seq);
    const events = await log.read(endpoint.group_id, cursor, WEBHOOK_BOUNDS.batchSize);
    const first = events[0];
    const groupSeq = Number(endpoint.group_seq);
    // Retention dropped events the endpoint was never sent: counted, and the cursor moves past them.
    const nextKept = first ? first.seq : groupSeq + 1;
    if (nextKept > cursor + 1) {
      if (!(await advance(endpoint, nextKept - 1, nextKept - 1 - cursor))) return false;
      cursor = nextKept - 1;
    }
    const types = endpoint.event_types;
    let passed = cursor;
    for (const event of events) {
      if (stopped) break;
      if (types.length > 0 && !types.includes(event.type)) {
        passed = event.seq;
        continue;
      }
      if (passed > cursor) {
        if (!(await advance(endpoint, passed))) return false;
        cursor = passed;
      }
      // Sent first, then recorded with its outcome: a process killed in between sends it again
      // (the same id and body), and no row waits for an attempt that never came.
      const id = deliveryIdOf(endpoint.id, event.seq);
      const body = payloadOf(event);
      const r = await attempt(endpoint, id, body);
      if (!r.ok) {
        const [delivery] = await runSql<DeliveryRow>(knex, recorded(endpoint, event, id, body, r));
        if (delivery) await failed(endpoint, delivery, r);
        return false;
      }
      // The last event of a batch that is not full lets the claim go in the same statement.
      const last = event === events[events.length - 1] && events.length < WEBHOOK_BOUNDS.batchSize;
      const claimAfter = last ? sql`lease_owner = null, lease_until = now()` : sql`lease_until = ${lease}`;
      const [held] = await runSql(
        knex,
        sql`with sent as (${recorded(endpoint, event, id, body, r)})
            update webhook_endpoints set delivered_seq = ${event.seq}, retry_at = null, ${claimAfter}
             where id = ${endpoint.id} and lease_owner = ${owner} returning id`,
      );
      if (!held) return false;
      turn.released = last;
      lag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
      cursor = event.seq;
      passed = cursor;
    }
    if (passed > cursor && !(await advance(endpoint, passed))) return false;
    return events.length >= WEBHOOK_BOUNDS.batchSize;
  }

  /** Keeps the newest `deliveriesKept` of the endpoint's log. */
  const prune = (endpointId: string) =>
    runSql(
      knex,
      sql`delete from webhook_deliveries where endpoint_id = ${endpointId} and not resend and seq <
            (select seq from webhook_deliveries where endpoint_id = ${endpointId}
              order by seq desc offset ${WEBHOOK_BOUNDS.deliveriesKept - 1} limit 1)`,
    );

  /** One claimed endpoint's turn; its claim let go at the end. True: it has more to do at once. */
  async function serve(endpoint: Claimed): Promise<boolean> {
    const turn = { released: false };
    try {
      if (!endpoint.creator_is_member) {
        // A member who left (was removed, deleted their account) must not keep reading the group through it.
        await disable(
          endpoint.id,
          'Its creator is no longer a member of the group (or deleted their account).',
        );
        return false;
      }
      if (endpoint.has_resend && !(await resend(endpoint))) return false;
      const from = Number(endpoint.delivered_seq);
      const more =
        endpoint.due && Number(endpoint.group_seq) > from ? await sendInOrder(endpoint, turn) : false;
      // The log is trimmed once every 100 events or so, not after each (a statement per delivery).
      if (Math.floor(Number(endpoint.group_seq) / 100) > Math.floor(from / 100)) await prune(endpoint.id);
      return more;
    } finally {
      if (!turn.released) await release(endpoint.id);
    }
  }

  /**
   * What the next round looks at: every endpoint (a poll, or an endpoint let go with work left
   * or room freed), or only those of the groups written since the last round (a local write's hint).
   */
  let wanted: { all: boolean; groups: Set<string> } = { all: false, groups: new Set() };

  /** Claims what this process has room for and serves it; each endpoint done may ask for another round. */
  async function round(): Promise<void> {
    const room = options.concurrency - serving.size;
    const { all, groups } = wanted;
    if (stopped || (!all && groups.size === 0)) return;
    if (room <= 0) return; // What is wanted stays wanted: the next endpoint let go asks again.
    wanted = { all: false, groups: new Set() };
    const claimed = await claim(room, all ? undefined : [...groups]);
    // A full claim may have left endpoints with work: look again once there is room.
    const full = claimed.length === room;
    for (const endpoint of claimed) {
      const turn: Promise<void> = serve(endpoint)
        .catch((error: unknown) => {
          ignored('webhook_serve', error, { endpointId: endpoint.id });
          return false;
        })
        .then((more) => {
          serving.delete(turn);
          const group = endpoint.group_id;
          const pokedMeanwhile = missed.has(group);
          servingGroups.set(group, (servingGroups.get(group) ?? 1) - 1);
          if (servingGroups.get(group) === 0) {
            servingGroups.delete(group);
            missed.delete(group);
          }
          // Its batch not done, or a claim that was full: everything again. Its group written while
          // it was served (the poke found it claimed): that group again.
          if (more || full) kick('all');
          else if (pokedMeanwhile) kick(group);
        });
      servingGroups.set(endpoint.group_id, (servingGroups.get(endpoint.group_id) ?? 0) + 1);
      serving.add(turn);
    }
  }

  /** A round soon (after a turn of the event loop), at most one waiting; `what` is added to what it looks at. */
  function kick(what: 'all' | string): void {
    if (stopped) return;
    if (what === 'all') wanted.all = true;
    else wanted.groups.add(what);
    schedule();
  }

  function schedule(): void {
    if (stopped || kicked) return;
    kicked = true;
    setImmediate(() => {
      kicked = false;
      if (rounding !== undefined) {
        // A round is running: one more after it, for what was wanted since its claim.
        void rounding.then(schedule);
        return;
      }
      rounding = round()
        .catch((error: unknown) => ignored('webhook_round', error))
        .finally(() => {
          rounding = undefined;
        });
    });
  }

  function poll(): void {
    if (stopped) return;
    kick('all');
    if (polls++ % HOOKED_REFRESH_POLLS === 0) {
      refreshHookedGroups().catch((error: unknown) => ignored('webhook_round', error));
    }
    timer = setTimeout(poll, options.pollMs);
    timer.unref?.();
  }

  return {
    /** Rounds every `pollMs` (none when 0), and when poked. */
    start(): void {
      if (options.pollMs <= 0 || !stopped) return;
      stopped = false;
      poll();
    },
    /**
     * A hint that these groups' logs grew (a local write): the next round comes now rather than at
     * the poll, when one of them has an endpoint (as of the last poll).
     */
    poke(groupIds: readonly string[]): void {
      for (const id of groupIds) {
        if (hookedGroups !== 'all' && !hookedGroups.has(id)) continue;
        if (servingGroups.has(id)) missed.add(id);
        kick(id);
      }
    },
    /** Stops claiming; waits for the endpoints being served (the current attempt of each ends first). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await rounding;
      await Promise.all([...serving]);
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;

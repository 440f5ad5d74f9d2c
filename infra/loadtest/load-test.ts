/**
 * The load test, built on the SDK (`packages/client`): virtual users in groups create, edit and
 * delete expenses and record settlements, all with idempotency keys, and deliberately retry some
 * writes with the same key; realtime clients stay subscribed to every group. At the end it checks
 * the promises: no duplicate effect, no lost acknowledged write, every event delivered in order.
 */
import { randomUUID } from 'node:crypto';
import {
  type Expense,
  type ExpenseRequest,
  type GroupEvent,
  ProblemError,
  type RealtimeClient,
  RetryExhaustedError,
  TallyClient,
  type WebSocketConstructor,
} from '@tally/client';
import WebSocket from 'ws';

export type LoadTestOptions = {
  url: string;
  groups: number;
  usersPerGroup: number;
  /** Realtime clients per group (each a member). */
  wsPerGroup: number;
  durationSeconds: number;
  /**
   * Keep the load on past `durationSeconds` until this holds (e.g. a chaos script has done its
   * part), so what runs under load does not depend on timing. @default always true
   */
  keepGoingUntil?: () => boolean;
  /** Called once the users, groups and realtime clients exist, as the load begins. */
  onLoadStart?: () => void;
  /** Awaited after the load, before the checks (e.g. until a disruption in progress is over). */
  beforeVerify?: () => Promise<void>;
  /** Pause between one virtual user's operations. @default 0 */
  thinkMs?: number;
  onProgress?: (p: Progress) => void;
  /** Retry policy of the SDK; the defaults suit a fleet that restarts under the test. */
  retry?: { maxAttempts?: number; baseDelayMs?: number; attemptTimeoutMs?: number };
};

export type Progress = { elapsedMs: number; durationMs: number; operations: number; errors: number };

export type OperationStats = {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** The slowest successful one, end to end (the SDK's retries and the proxy's resends included). */
  max: number;
  latencies: number[];
};

/** A write the SDK had to send more than once (a kill, a restart or an outage got in its way). */
export type RetriedWrite = {
  operation: string;
  /** Epoch milliseconds when the operation began. */
  startedAt: number;
  /** From the first attempt to the answer (or to giving up), retries and backoff included. */
  ms: number;
  retries: number;
  succeeded: boolean;
};

export type LoadTestResult = {
  durationSeconds: number;
  operations: Record<string, OperationStats>;
  throughput: number;
  errorsByCode: Record<string, number>;
  /**
   * Operations that failed with something the SDK does not retry (a 4xx other than the expected
   * races, a 5xx or network error on a request it may not resend), as opposed to retries exhausted.
   */
  nonRetryableFailures: number;
  /** `nonRetryableFailures` over all operations. */
  nonRetryableShare: number;
  /** Every write the SDK retried, slowest first. */
  retriedWrites: RetriedWrite[];
  /** Why the SDK retried (every request, reads too): the problem code or error name, counted. */
  retriesByCause: Record<string, number>;
  /** Expenses created beyond one per acknowledged create key. Must be 0. */
  duplicatesCreated: number;
  /** Acknowledged creates whose expense cannot be found (and was not deleted by the test). Must be 0. */
  lostWrites: number;
  /** Deliberate retries with an already used key that did not replay the same expense. Must be 0. */
  replayMismatches: number;
  eventsExpected: number;
  eventsDelivered: number;
  /** Events a realtime client never got (summed over clients). Must be 0. */
  eventsLost: number;
  /** Events a realtime client got more than once, or after a later one (summed over clients). Must be 0. */
  eventsOutOfOrder: number;
  /** Realtime clients whose events were not exactly seq 1..last in order. Must be 0. */
  outOfOrderClients: number;
  passed: boolean;
  failures: string[];
};

type User = { client: TallyClient; id: string };
type Group = {
  id: string;
  members: User[];
  /** Acknowledged creates by key; keys are scoped per user, so the creator is kept with each. */
  created: Map<string, { key: string; body: ExpenseRequest; id: string; user: User }>;
  deleted: Set<string>;
  /** Writes whose outcome the client never learnt (retries exhausted): retried at the end, as an app would. */
  unsettledCreates: Map<string, { body: ExpenseRequest; user: User }>;
  unsettledDeletes: Set<string>;
};

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

function codeOf(error: unknown): string {
  if (error instanceof ProblemError) return error.code;
  if (error instanceof RetryExhaustedError)
    return `retries_exhausted:${error.lastProblem?.code ?? error.lastError.name}`;
  return error instanceof Error ? error.name : 'unknown';
}

/**
 * What one realtime client got of its group's events 1..`last`: `lost` never arrived; `outOfOrder`
 * arrived again, or after a later one.
 */
export function deliveryOf(seqs: number[], last: number): { lost: number; outOfOrder: number } {
  const distinct = new Set(seqs.filter((seq) => seq >= 1 && seq <= last));
  let outOfOrder = 0;
  let highest = 0;
  for (const seq of seqs) {
    if (seq <= highest) outOfOrder++;
    highest = Math.max(highest, seq);
  }
  return { lost: last - distinct.size, outOfOrder };
}

export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestResult> {
  const retry = { maxAttempts: 10, baseDelayMs: 100, attemptTimeoutMs: 10_000, ...options.retry };
  /** The SDK's retries so far, by idempotency key: every timed write passes a key of its own. */
  const retriesByKey = new Map<string, number>();
  const retriesByCause: Record<string, number> = {};
  const newClient = () =>
    new TallyClient({
      baseUrl: options.url,
      retry,
      onRetry: ({ idempotencyKey, error }) => {
        const cause = codeOf(error);
        retriesByCause[cause] = (retriesByCause[cause] ?? 0) + 1;
        if (idempotencyKey) retriesByKey.set(idempotencyKey, (retriesByKey.get(idempotencyKey) ?? 0) + 1);
      },
    });
  const stats = new Map<string, { latencies: number[]; errors: number }>();
  const errorsByCode: Record<string, number> = {};
  const retriedWrites: RetriedWrite[] = [];
  let operations = 0;
  let errors = 0;
  let nonRetryableFailures = 0;
  let replayMismatches = 0;

  /** Runs one write sent with idempotency key `key`, timing it and counting its errors and retries. */
  const timed = async <T>(name: string, key: string, op: () => Promise<T>): Promise<T | undefined> => {
    const entry = stats.get(name) ?? { latencies: [], errors: 0 };
    stats.set(name, entry);
    const startedAt = Date.now();
    const started = performance.now();
    const retriesBefore = retriesByKey.get(key) ?? 0;
    let succeeded = false;
    try {
      const result = await op();
      entry.latencies.push(performance.now() - started);
      succeeded = true;
      return result;
    } catch (error) {
      entry.errors++;
      errors++;
      if (!(error instanceof RetryExhaustedError)) nonRetryableFailures++;
      const code = codeOf(error);
      errorsByCode[code] = (errorsByCode[code] ?? 0) + 1;
      return undefined;
    } finally {
      operations++;
      const retries = (retriesByKey.get(key) ?? 0) - retriesBefore;
      if (retries > 0) {
        const ms = performance.now() - started;
        retriedWrites.push({ operation: name, startedAt, ms, retries, succeeded });
      }
    }
  };

  // ---- setup: users and groups ------------------------------------------------------------------
  const run = randomUUID().slice(0, 8);
  const groups: Group[] = [];
  for (let g = 0; g < options.groups; g++) {
    const members: User[] = [];
    for (let u = 0; u < options.usersPerGroup; u++) {
      const client = newClient();
      const session = await client.auth.register({
        email: `load-${run}-${g}-${u}@example.com`,
        name: `Load ${g}.${u}`,
        password: 'load test password',
      });
      members.push({ client, id: session.user.id });
    }
    const owner = members[0] as User;
    const group = await owner.client.groups.create({ name: `Load ${run} ${g}` });
    for (const member of members.slice(1))
      await owner.client.groups.addMember(group.id, { userId: member.id });
    groups.push({
      id: group.id,
      members,
      created: new Map(),
      deleted: new Set(),
      unsettledCreates: new Map(),
      unsettledDeletes: new Set(),
    });
  }

  // ---- realtime clients: every event of every group, from seq 0 --------------------------------
  const listeners: { groupId: string; seqs: number[]; realtime: RealtimeClient }[] = [];
  for (const group of groups) {
    for (let w = 0; w < options.wsPerGroup; w++) {
      const member = group.members[w % group.members.length] as User;
      const realtime = member.client.realtime({
        WebSocket: WebSocket as unknown as WebSocketConstructor,
        reconnectBaseDelayMs: 100,
      });
      const entry = { groupId: group.id, seqs: [] as number[], realtime };
      realtime.subscribe(group.id, {
        afterSeq: 0,
        onEvent: (event: GroupEvent) => entry.seqs.push(event.seq),
      });
      listeners.push(entry);
    }
  }

  // ---- the load ---------------------------------------------------------------------------------
  const durationMs = options.durationSeconds * 1000;
  options.onLoadStart?.();
  const started = Date.now();
  const progress = setInterval(() => {
    options.onProgress?.({ elapsedMs: Date.now() - started, durationMs, operations, errors });
  }, 250);

  const expenseBody = (group: Group, payer: User): ExpenseRequest => ({
    groupId: group.id,
    description: 'Load test',
    amount: 100 + Math.floor(Math.random() * 100_000),
    paidBy: payer.id,
    split: { type: 'equal', between: group.members.map((m) => m.id) },
  });

  const virtualUser = async (group: Group, user: User) => {
    while (Date.now() - started < durationMs || !(options.keepGoingUntil?.() ?? true)) {
      const roll = Math.random();
      const live = [...group.created.values()].filter((c) => !group.deleted.has(c.id));
      if (roll < 0.45 || live.length === 0) {
        const body = expenseBody(group, user);
        const key = randomUUID();
        const expense = await timed('create expense', key, () =>
          user.client.expenses.create(body, { idempotencyKey: key }),
        );
        if (expense) group.created.set(key, { key, body, id: expense.id, user });
        else group.unsettledCreates.set(key, { body, user });
      } else if (roll < 0.6) {
        // A deliberate duplicate: the same key and body again must replay the same expense.
        const pick = [...group.created.values()][Math.floor(Math.random() * group.created.size)];
        if (!pick) continue;
        // As the app of the user who made it: a key is scoped to (user, key, path).
        const again = await timed('retry create (same key)', pick.key, () =>
          pick.user.client.expenses.create(pick.body, { idempotencyKey: pick.key }),
        );
        if (again && again.id !== pick.id) replayMismatches++;
      } else if (roll < 0.8) {
        const pick = live[Math.floor(Math.random() * live.length)] as { id: string };
        const key = randomUUID();
        await timed('edit expense', key, async () => {
          try {
            const patch = { description: `Edited ${Date.now()}` };
            return await user.client.expenses.patch(pick.id, patch, { idempotencyKey: key });
          } catch (error) {
            // Deleted by another virtual user meanwhile: an outcome, not a failure of the service.
            if (error instanceof ProblemError && error.code === 'not_found') return undefined;
            throw error;
          }
        });
      } else if (roll < 0.9) {
        const pick = live[Math.floor(Math.random() * live.length)] as { id: string };
        const key = randomUUID();
        const done = await timed('delete expense', key, () =>
          user.client.expenses.delete(pick.id, { idempotencyKey: key }).then(() => true),
        );
        if (done) group.deleted.add(pick.id);
        else group.unsettledDeletes.add(pick.id);
      } else {
        const other = group.members.find((m) => m.id !== user.id);
        if (other) {
          const key = randomUUID();
          const body = { groupId: group.id, fromUserId: user.id, toUserId: other.id, amount: 100 };
          await timed('create settlement', key, () =>
            user.client.settlements.create(body, { idempotencyKey: key }),
          );
        }
      }
      if (options.thinkMs) await new Promise((resolve) => setTimeout(resolve, options.thinkMs));
    }
  };
  await Promise.all(groups.flatMap((group) => group.members.map((user) => virtualUser(group, user))));
  clearInterval(progress);
  options.onProgress?.({ elapsedMs: Date.now() - started, durationMs, operations, errors });
  const elapsedSeconds = (Date.now() - started) / 1000;
  await options.beforeVerify?.();

  // ---- verification -----------------------------------------------------------------------------
  let duplicatesCreated = 0;
  let lostWrites = 0;
  let eventsExpected = 0;
  const lastSeqs = new Map<string, number>();
  for (const group of groups) {
    const reader = (group.members[0] as User).client;
    // Finish what the client could not confirm, with the same keys: replayed or executed once.
    for (const [key, { body, user }] of group.unsettledCreates) {
      const expense = await user.client.expenses.create(body, {
        idempotencyKey: key,
        retry: { maxAttempts: 20 },
      });
      group.created.set(key, { key, body, id: expense.id, user });
    }
    for (const id of group.unsettledDeletes) {
      await reader.expenses.delete(id, { retry: { maxAttempts: 20 } });
      group.deleted.add(id);
    }
    const liveIds = new Set<string>();
    for await (const expense of reader.expenses.listAll(group.id)) liveIds.add((expense as Expense).id);
    const ackedIds = new Set([...group.created.values()].map((c) => c.id));
    const expectedLive = [...ackedIds].filter((id) => !group.deleted.has(id));
    for (const id of expectedLive) if (!liveIds.has(id)) lostWrites++;
    duplicatesCreated += [...liveIds].filter((id) => !ackedIds.has(id)).length;
    const balances = await reader.groups.balances(group.id);
    lastSeqs.set(group.id, balances.asOfSeq);
  }
  // Let the realtime clients catch up with the last events, then compare.
  const deadline = Date.now() + 15_000;
  const complete = () => listeners.every((l) => deliveryOf(l.seqs, lastSeqs.get(l.groupId) ?? 0).lost === 0);
  while (!complete() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  let eventsDelivered = 0;
  let eventsLost = 0;
  let eventsOutOfOrder = 0;
  let outOfOrderClients = 0;
  for (const listener of listeners) {
    const last = lastSeqs.get(listener.groupId) ?? 0;
    const delivery = deliveryOf(listener.seqs, last);
    eventsExpected += last;
    eventsDelivered += listener.seqs.length;
    eventsLost += delivery.lost;
    eventsOutOfOrder += delivery.outOfOrder;
    const inOrder = listener.seqs.length === last && listener.seqs.every((seq, i) => seq === i + 1);
    if (!inOrder) outOfOrderClients++;
    listener.realtime.close();
  }
  retriedWrites.sort((a, b) => b.ms - a.ms);

  const operationStats: Record<string, OperationStats> = {};
  for (const [name, entry] of stats) {
    const sorted = [...entry.latencies].sort((a, b) => a - b);
    operationStats[name] = {
      count: entry.latencies.length + entry.errors,
      errors: entry.errors,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
      latencies: sorted,
    };
  }
  const failures: string[] = [];
  if (duplicatesCreated !== 0) failures.push(`${duplicatesCreated} duplicate expenses created`);
  if (lostWrites !== 0) failures.push(`${lostWrites} acknowledged writes lost`);
  if (replayMismatches !== 0) failures.push(`${replayMismatches} retries did not replay the same expense`);
  if (eventsDelivered !== eventsExpected)
    failures.push(`events delivered ${eventsDelivered} of ${eventsExpected}`);
  if (eventsLost !== 0) failures.push(`${eventsLost} events never reached a realtime client`);
  if (eventsOutOfOrder !== 0) failures.push(`${eventsOutOfOrder} events delivered twice or out of order`);
  if (outOfOrderClients !== 0)
    failures.push(`${outOfOrderClients} realtime clients saw a gap, duplicate or disorder`);
  return {
    durationSeconds: elapsedSeconds,
    operations: operationStats,
    throughput: operations / elapsedSeconds,
    errorsByCode,
    nonRetryableFailures,
    nonRetryableShare: operations === 0 ? 0 : nonRetryableFailures / operations,
    retriedWrites,
    retriesByCause,
    duplicatesCreated,
    lostWrites,
    replayMismatches,
    eventsExpected,
    eventsDelivered,
    eventsLost,
    eventsOutOfOrder,
    outOfOrderClients,
    passed: failures.length === 0,
    failures,
  };
}

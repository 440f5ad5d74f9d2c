import { AppError, PROBLEM_CONTENT_TYPE, toProblem } from '@tally/http-kit';
import {
  DurableRecordExists,
  fingerprintOf,
  IdempotencyConflict,
  type IdempotencyLayer,
  type Lease,
  parseIdempotencyKey,
} from '@tally/idempotency';
import type { Announcer } from '../ledger/announcer';
import type { WriteContext, WriteRequest, WriteResult, WriteRunner, Written } from '../ledger/write-runner';
import type { Reply } from './reply';
import { declareRoute, type Route, type RouteInput } from './route';

type Keyed = { operation: string; maxBodyBytes?: number };

/** One write route: its operation, what it reads from the request, the change it makes, and its answer. */
export type WriteSpec<I, T> = Keyed & {
  /**
   * The request checked on its own (body, path parameters, rules such as shares that add up):
   * a 4xx here is answered before the key is claimed, so it records nothing.
   */
  parse: (req: RouteInput) => I;
  /** The change, decided on the group's state; its errors (404, 409, 412, 422 not_a_member) are outcomes. */
  work: (ctx: WriteContext, userId: string, input: I, req: RouteInput) => Promise<WriteResult<T>>;
  reply: (value: T) => Reply;
  retryIf?: WriteRequest<T>['retryIf'];
};

/**
 * A write of many changes (an import: one statement per row, each announcing its own events): the
 * same steps, but `run` makes the changes and its answer is recorded by itself afterwards.
 */
export type ManyWriteSpec<I> = Keyed & {
  parse: (req: RouteInput) => Promise<I>;
  /** The request's fingerprint, from what `parse` made of it. */
  fingerprint: (req: RouteInput, input: I) => string;
  run: (userId: string, input: I) => Promise<Reply>;
};

/** A registered write route, as the API spells it (`/v1/expenses/:expenseId`). */
export type WriteRouteInfo = { method: string; path: string; key: 'required' | 'optional' };

/** The write routes among `routes`: what a test checks every keyed route against (API.md §7). */
export const writeRoutesOf = (routes: readonly Route[]): WriteRouteInfo[] =>
  routes.flatMap((r) => (r.key ? [{ method: r.method, path: r.path, key: r.key }] : []));

/** Statuses an operation may answer that are not its own outcome, so they are never recorded (API.md §7). */
const NOT_RECORDED = new Set([401, 429]);

/** The operation's own 4xx outcomes (404, 409 member_has_balance, 412, 422 not_a_member…), recorded and replayed. */
function recordableOutcome(error: unknown, requestId: string): Reply | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (error.status < 400 || error.status >= 500 || NOT_RECORDED.has(error.status)) return undefined;
  if (error.code.startsWith('idempotency_')) return undefined;
  return {
    status: error.status,
    body: toProblem(error, requestId),
    headers: { ...error.headers, 'Content-Type': PROBLEM_CONTENT_TYPE },
  };
}

function toHttpError(error: IdempotencyConflict): AppError {
  return error.kind === 'in_progress'
    ? new AppError('idempotency_key_in_progress', 409, error.message, { headers: { 'Retry-After': '1' } })
    : new AppError('idempotency_key_reused', 409, error.message);
}

/** The request's `Idempotency-Key`: 400 when malformed, or missing where it is required. */
export function keyOf(req: RouteInput, requirement: 'required' | 'optional'): string | undefined {
  const parsed = parseIdempotencyKey(req.headers['idempotency-key']);
  if (parsed.ok) return parsed.key;
  if (parsed.reason === 'invalid') {
    throw new AppError(
      'idempotency_key_invalid',
      400,
      'Idempotency-Key must be 1–255 printable ASCII characters.',
    );
  }
  if (requirement === 'required') {
    throw new AppError('idempotency_key_missing', 400, 'This money write needs an Idempotency-Key header.');
  }
  return undefined;
}

/**
 * The path of an idempotency scope (API.md §7): the route's template (from its operation) with its
 * ids filled in, as the API spells it, whatever spelling reached the route (`/V1/Expenses/`,
 * `exp%5F1` for `exp_1`): ids keep their case (they are case-sensitive) and are percent-encoded
 * where a path segment needs it.
 */
export function canonicalPath(req: Pick<RouteInput, 'route' | 'params'>): string {
  const template = req.route.path;
  if (!template.includes(':')) return template;
  return template.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value: unknown = req.params[name];
    if (typeof value !== 'string') throw new Error(`route parameter ${name} has no value`);
    return encodeURIComponent(value);
  });
}

/** Keyed requests whose parse this process remembers (see `createParsedRequests`). */
const PARSED_REQUESTS = 4096;

/**
 * What `parse` made of the keyed requests this process saw last, by canonical path and fingerprint
 * (method and body). Parsing depends on nothing else, so a request seen before (a retry: most are
 * replays) skips validation, which it passed then; a request that failed is not remembered. A
 * remembered input is frozen, since every retry of the request shares it.
 */
function createParsedRequests(capacity: number) {
  const inputs = new Map<string, unknown>();
  return <I>(key: string, parse: () => I): I => {
    if (inputs.has(key)) return inputs.get(key) as I;
    const input = deepFreeze(parse());
    inputs.set(key, input);
    if (inputs.size > capacity) inputs.delete(inputs.keys().next().value as string);
    return input;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

export type WriteRouteDeps = {
  writes: WriteRunner;
  announcer: Announcer;
  /** Exactly-once execution of keyed requests; without it keys are checked but not recorded. */
  idempotency: IdempotencyLayer | undefined;
};

/** How one write changes the group: its durable record given, the change and its events. */
type Write = (record: NonNullable<WriteRequest<unknown>['record']>) => Promise<Written>;

/**
 * Every write the API takes (but auth's) is a route made here (one maker for the whole app), and
 * runs these steps in this order, after the request pipeline's (http/steps.ts):
 *
 * 1. **parse**: the `Idempotency-Key` header, then the body and path on their own (`spec.parse`).
 *    A request invalid in itself is answered here: nothing is recorded and the key stays unseen,
 *    so a corrected retry with the same key runs.
 * 2. **claim** the key (keyed requests): its recorded answer is replayed, another request's key is
 *    `409 idempotency_key_reused`, a key still running elsewhere is waited on, then `409 in_progress`.
 * 3. **write**: the change as ONE statement, which carries the durable record of the answer. An
 *    outcome that changed nothing (a no-op, a `404`, a `422 not_a_member`) is recorded by itself.
 *    A live record found holding the key means another request got there first: its answer is
 *    replayed. A failure with no answer to record frees the key for a retry.
 * 4. **reply**: the answer is recorded in the idempotency store for fast replays.
 * 5. **announce**: the write's events go out, with the key's completion in one Redis round trip
 *    where the store can; otherwise by the event bus. The outbox relay covers a publish that fails.
 * 6. **send** the answer.
 */
export function createWriteRoutes(deps: WriteRouteDeps) {
  const { writes, announcer, idempotency } = deps;
  const parsedOnce = createParsedRequests(PARSED_REQUESTS);

  /** Step 3 for a keyed request: the write with its durable record, or the answer recorded before. */
  async function writeRecorded(lease: Lease, write: Write, requestId: string): Promise<Written> {
    const layer = idempotency as IdempotencyLayer;
    const record = (reply: Reply) => layer.record(lease, reply);
    const replayed = async (): Promise<Written> => ({
      reply: await layer.replayDurable(lease),
      events: [],
      recorded: true,
    });
    const recordedAlone = async (reply: Reply): Promise<Written> =>
      (await writes.recordAlone(record(reply))) ? { reply, events: [], recorded: true } : replayed();
    try {
      const written = await write(record);
      return written.recorded ? written : await recordedAlone(written.reply);
    } catch (error) {
      if (error instanceof DurableRecordExists) return replayed();
      const outcome = recordableOutcome(error, requestId);
      if (outcome) return recordedAlone(outcome);
      throw error;
    }
  }

  /** Steps 2–5 of a keyed request, its answer as data (step 6 is the pipeline's). */
  async function keyedReply(
    req: RouteInput,
    key: string,
    path: string,
    fingerprint: string,
    write: Write,
  ): Promise<Reply> {
    const layer = idempotency as IdempotencyLayer;
    try {
      // 2. claim
      const claimed = await layer.claim({ userId: req.userId, key, path, fingerprint });
      if (claimed.replay) return claimed.replay;
      const { lease } = claimed;
      // 3. write
      let written: Written;
      try {
        written = await writeRecorded(lease, write, req.requestId);
      } catch (error) {
        await layer.release(lease);
        throw error;
      }
      // 4. reply, 5. announce
      const publishedBy = await layer.complete(lease, written.reply, () =>
        announcer.publications(written.events),
      );
      announcer.announce(written.events, publishedBy);
      return written.reply;
    } catch (error) {
      throw error instanceof IdempotencyConflict ? toHttpError(error) : error;
    }
  }

  /** Steps 1–5 of one change. */
  async function replyTo<I, T>(
    spec: WriteSpec<I, T>,
    key: string | undefined,
    req: RouteInput,
  ): Promise<Reply> {
    // 1. parse
    const keyed = key !== undefined && idempotency !== undefined;
    const scopePath = keyed ? canonicalPath(req) : '';
    const fingerprint = keyed ? fingerprintOf(req.method, req.body) : '';
    const input = keyed ? parsedOnce(`${scopePath}\n${fingerprint}`, () => spec.parse(req)) : spec.parse(req);
    const request: WriteRequest<T> = {
      work: (ctx) => spec.work(ctx, req.userId, input, req),
      reply: spec.reply,
      retryIf: spec.retryIf,
    };
    if (!keyed) {
      const written = await writes.run(request);
      announcer.announce(written.events);
      return written.reply;
    }
    return keyedReply(req, key, scopePath, fingerprint, (record) => writes.run({ ...request, record }));
  }

  /** Steps 1–5 of many changes: the same, but the changes announce themselves and the answer is recorded alone. */
  async function replyToMany<I>(
    spec: ManyWriteSpec<I>,
    key: string | undefined,
    req: RouteInput,
  ): Promise<Reply> {
    const input = await spec.parse(req);
    if (key === undefined || idempotency === undefined) return spec.run(req.userId, input);
    const run: Write = async () => ({
      reply: await spec.run(req.userId, input),
      events: [],
      recorded: false,
    });
    return keyedReply(req, key, canonicalPath(req), spec.fingerprint(req, input), run);
  }

  /** A write route: the operation says its method, path, body and whether its key is required. */
  function declare(spec: Keyed, reply: (key: string | undefined, req: RouteInput) => Promise<Reply>): Route {
    let requirement: 'required' | 'optional' = 'optional';
    const route = declareRoute({
      operation: spec.operation,
      maxBodyBytes: spec.maxBodyBytes,
      handler: (req) => reply(keyOf(req, requirement), req),
    });
    const key = route.operation?.idempotency;
    if (key === undefined) throw new Error(`write operation ${spec.operation} documents no idempotency`);
    requirement = key;
    return { ...route, key };
  }

  return {
    /** A route of one change. */
    write: <I, T>(spec: WriteSpec<I, T>): Route => declare(spec, (key, req) => replyTo(spec, key, req)),
    /** A route of many changes (an import). */
    writeMany: <I>(spec: ManyWriteSpec<I>): Route => declare(spec, (key, req) => replyToMany(spec, key, req)),
  };
}

export type WriteRoutes = ReturnType<typeof createWriteRoutes>;

import type { TokenManager } from './auth.js';
import {
  describeCause,
  NetworkError,
  problemErrorOf,
  RequestAbortedError,
  RetryExhaustedError,
  type TallyError,
  TimeoutError,
  UnexpectedResponseError,
} from './errors.js';
import { randomIdempotencyKey } from './idempotency-key.js';
import {
  type AttemptOutcome,
  DEFAULT_RETRY_POLICY,
  isRetryableOutcome,
  isRetryableRequest,
  parseRetryAfter,
  type RetryPolicy,
  retryDelay,
} from './retry-policy.js';
import { SeenStates } from './seen-states.js';
import type { HttpMethod, Problem } from './types.js';

/** The part of `fetch`'s init the client uses. */
export type FetchInit = {
  method: string;
  headers: Record<string, string>;
  /** JSON text, or a file's bytes (a receipt upload). */
  body?: string | Uint8Array | Blob;
  signal: AbortSignal;
};

/** The part of a `fetch` response the client uses. */
export type FetchResponse = {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
};

/** `fetch`, or anything shaped like it (a polyfill, a mock). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** Waits `ms`; rejects (with anything) when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Reported before every retry, for logging and metrics. */
export type RetryInfo = {
  method: HttpMethod;
  path: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: TallyError;
  idempotencyKey: string | undefined;
};

export type HttpClientOptions = {
  /** The server's origin, e.g. `https://api.example.com` (paths start with `/v1`). */
  baseUrl: string;
  /**
   * The `fetch` to use.
   * @default globalThis.fetch (looked up at call time)
   */
  fetch?: FetchLike;
  /** Retry policy; unspecified fields keep their defaults ({@link DEFAULT_RETRY_POLICY}). */
  retry?: Partial<RetryPolicy>;
  /**
   * Waits between attempts; inject a fake in tests.
   * @default a `setTimeout` that the request's `AbortSignal` cancels
   */
  sleep?: Sleep;
  /**
   * Random numbers in [0, 1) for the backoff jitter.
   * @default Math.random
   */
  random?: () => number;
  /**
   * The clock (epoch milliseconds), for `Retry-After` dates and token expiry.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Makes the `Idempotency-Key` of a new logical operation.
   * @default globalThis.crypto.randomUUID() (UUIDv4)
   */
  generateIdempotencyKey?: () => string;
  /**
   * Headers sent with every request (e.g. `User-Agent`, `X-Client-Version`).
   * @default {}
   */
  headers?: Record<string, string>;
  /** Supplies the bearer token and refreshes it once on 401; without it requests are anonymous. */
  tokens?: TokenManager;
  /** Called before every retry. */
  onRetry?: (info: RetryInfo) => void;
  /**
   * The group states seen (writes' `X-Seq`, events), sent back as `X-Min-Seq` on the reads a replica
   * may serve, so that none shows an older state.
   * @default a new SeenStates of this client
   */
  seenStates?: SeenStates;
};

/** Per-call options of every method. */
export type CallOptions = {
  /** Cancels the operation: the attempt in flight and any wait for the next one. */
  signal?: AbortSignal;
  /** Overrides of the client's retry policy for this call. */
  retry?: Partial<RetryPolicy>;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
};

/** Per-call options of writes. */
export type WriteOptions = CallOptions & {
  /**
   * The `Idempotency-Key` of this logical operation; every retry carries it. Pass your own to retry
   * an operation across app restarts (store it with the pending write).
   * @default a fresh key made by `generateIdempotencyKey`
   */
  idempotencyKey?: string;
};

export type HttpRequest = {
  method: HttpMethod;
  /** Starts with `/`; path parameters already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is instead of `body`: a file with its media type (a receipt upload, API.md §16). */
  rawBody?: { bytes: Uint8Array | Blob; contentType: string };
  headers?: Record<string, string>;
  /**
   * A key to send, `false` for none, or undefined for a fresh key on every write
   * (POST, PUT, PATCH, DELETE) and none on reads.
   */
  idempotencyKey?: string | false;
  /**
   * Whether to send the bearer token (and refresh it once on 401).
   * @default true
   */
  authenticated?: boolean;
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
  /** `text`: a successful body is returned as text, not parsed (a CSV download). @default 'json' */
  responseType?: 'json' | 'text';
};

export type HttpResponse<T> = {
  status: number;
  /** The parsed JSON body; undefined for 204, 304 and HEAD. */
  data: T;
  headers: { get(name: string): string | null };
  etag: string | undefined;
  location: string | undefined;
  requestId: string | undefined;
  /** `Idempotent-Replayed: true`: the server replayed the recorded response of this key. */
  replayed: boolean;
  idempotencyKey: string | undefined;
  /** Attempts it took (1 when the first one succeeded). */
  attempts: number;
};

type AttemptResult =
  | { kind: 'response'; response: FetchResponse; text: string }
  | { kind: 'network-error'; error: unknown }
  | { kind: 'timeout' };

const isWrite = (method: HttpMethod) => method !== 'GET' && method !== 'HEAD';

function defaultFetch(url: string, init: FetchInit): Promise<FetchResponse> {
  const f = (globalThis as unknown as { fetch?: FetchLike }).fetch;
  if (typeof f !== 'function') throw new NetworkError('no global fetch: pass the `fetch` option');
  return f(url, init);
}

/** `setTimeout` that the signal cancels. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RequestAbortedError({ cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RequestAbortedError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
}

/** Builds a problem for an error response: the server's problem+json, or one made up from the status. */
function problemOf(response: FetchResponse, text: string): Problem {
  const contentType = response.headers.get('content-type') ?? '';
  if (/json/i.test(contentType) && text) {
    try {
      const body = JSON.parse(text) as Partial<Problem> | null;
      if (body && typeof body === 'object' && typeof body.code === 'string') {
        return {
          type: typeof body.type === 'string' ? body.type : `/problems/${body.code.replace(/_/g, '-')}`,
          title: typeof body.title === 'string' ? body.title : response.statusText,
          status: typeof body.status === 'number' ? body.status : response.status,
          code: body.code,
          detail: typeof body.detail === 'string' ? body.detail : '',
          ...(typeof body.requestId === 'string' ? { requestId: body.requestId } : {}),
          ...(Array.isArray(body.errors) ? { errors: body.errors } : {}),
          // The bound of a `limit_exceeded` (`LimitExceededError.limit`).
          ...(body.limit && typeof body.limit === 'object' ? { limit: body.limit } : {}),
        };
      }
    } catch {
      // not JSON after all: described below
    }
  }
  const requestId = response.headers.get('x-request-id') ?? undefined;
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    code: 'http_error',
    detail: text.slice(0, 200),
    ...(requestId ? { requestId } : {}),
  };
}

/**
 * The HTTP core: JSON over `fetch`, an `Idempotency-Key` per logical operation, retries with
 * exponential full-jitter backoff that honour `Retry-After`, a per-attempt timeout, `AbortSignal`,
 * and one bearer-token refresh on 401. Uses only web APIs (fetch, AbortController, setTimeout).
 */
export class HttpClient {
  readonly baseUrl: string;
  readonly policy: Readonly<RetryPolicy>;
  private readonly fetch: FetchLike;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly newKey: () => string;
  private readonly headers: Record<string, string>;
  private readonly tokens: TokenManager | undefined;
  private readonly onRetry: ((info: RetryInfo) => void) | undefined;
  /** The group states this client has seen (see {@link SeenStates}). */
  readonly seenStates: SeenStates;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.fetch = options.fetch ?? defaultFetch;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.newKey = options.generateIdempotencyKey ?? randomIdempotencyKey;
    this.headers = { ...options.headers };
    this.tokens = options.tokens;
    this.onRetry = options.onRetry;
    this.seenStates = options.seenStates ?? new SeenStates();
  }

  /** The absolute URL of a path and query. */
  urlOf(path: string, query?: HttpRequest['query']): string {
    const pairs = Object.entries(query ?? {}).filter(
      (entry): entry is [string, string | number] => entry[1] !== undefined,
    );
    const search = pairs
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /**
   * Runs one logical operation: attempts it until it succeeds, fails in a way that is not retryable,
   * or the attempt cap is reached. Every attempt carries the same `Idempotency-Key`.
   * @throws ProblemError (a subclass per code), NetworkError or TimeoutError when the failure is not
   *   retried, RetryExhaustedError at the attempt cap, RequestAbortedError when `signal` fires
   */
  async request<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const policy = { ...this.policy, ...req.retry };
    const { method, signal } = req;
    const key =
      req.idempotencyKey === false
        ? undefined
        : (req.idempotencyKey ?? (isWrite(method) ? this.newKey() : undefined));
    const retryable = isRetryableRequest(method, key !== undefined);
    const authenticated = req.authenticated !== false && this.tokens !== undefined;
    const url = this.urlOf(req.path, req.query);
    const body = req.rawBody?.bytes ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const contentType = req.rawBody?.contentType ?? 'application/json; charset=utf-8';
    const minSeq = method === 'GET' ? this.seenStates.minSeqFor(req.path) : undefined;
    const baseHeaders: Record<string, string> = {
      Accept: 'application/json',
      ...this.headers,
      ...(minSeq !== undefined ? { 'X-Min-Seq': minSeq } : {}),
      ...req.headers,
      ...(body !== undefined ? { 'Content-Type': contentType } : {}),
      ...(key !== undefined ? { 'Idempotency-Key': key } : {}),
    };

    let attempt = 0;
    let refreshed = false;
    let lastProblem: Problem | undefined;
    for (;;) {
      throwIfAborted(signal);
      attempt++;
      const token = authenticated ? await this.tokens?.accessToken() : undefined;
      const headers = token ? { ...baseHeaders, Authorization: `Bearer ${token}` } : baseHeaders;
      const result = await this.attempt(
        url,
        { method, headers, ...(body !== undefined ? { body } : {}) },
        policy.attemptTimeoutMs,
        signal,
      );

      let error: TallyError;
      let outcome: AttemptOutcome;
      let retryAfterMs: number | undefined;
      if (result.kind === 'response') {
        const { response, text } = result;
        if (response.status < 400)
          return this.success<T>(method, response, text, key, attempt, req.responseType);
        const problem = problemOf(response, text);
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.now());
        if (
          response.status === 401 &&
          problem.code === 'unauthenticated' &&
          authenticated &&
          !refreshed &&
          this.tokens
        ) {
          refreshed = true;
          const next = await this.tokens.refreshAfter(token);
          if (next !== undefined) {
            attempt--; // the retry with the new token is the same attempt
            continue;
          }
        }
        lastProblem = problem;
        error = problemErrorOf(problem, retryAfterMs === undefined ? {} : { retryAfterMs });
        outcome = { kind: 'response', status: response.status, code: problem.code };
      } else if (result.kind === 'timeout') {
        error = new TimeoutError(policy.attemptTimeoutMs);
        outcome = { kind: 'timeout' };
      } else {
        const cause = result.error;
        error = new NetworkError(`${method} ${req.path}: ${describeCause(cause)}`, { cause });
        outcome = { kind: 'network-error' };
      }

      if (!retryable || !isRetryableOutcome(outcome)) throw error;
      // A wait longer than the caller would sit through: the error says when (retryAfterMs).
      if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) throw error;
      if (attempt >= policy.maxAttempts) {
        throw new RetryExhaustedError({
          attempts: attempt,
          lastError: error,
          lastProblem,
          idempotencyKey: key,
        });
      }
      const delayMs = retryDelay(attempt, retryAfterMs, policy, this.random);
      this.onRetry?.({ method, path: req.path, attempt, delayMs, error, idempotencyKey: key });
      try {
        await this.sleep(delayMs, signal);
      } catch (cause) {
        throw cause instanceof RequestAbortedError ? cause : new RequestAbortedError({ cause });
      }
    }
  }

  private success<T>(
    method: HttpMethod,
    response: FetchResponse,
    text: string,
    key: string | undefined,
    attempts: number,
    responseType: HttpRequest['responseType'] = 'json',
  ): HttpResponse<T> {
    let data: unknown;
    if (responseType === 'text') data = text;
    else if (method !== 'HEAD' && response.status !== 204 && response.status !== 304 && text !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        throw new UnexpectedResponseError(response.status, `${response.status} response is not JSON`);
      }
    }
    const header = (name: string) => response.headers.get(name) ?? undefined;
    this.seenStates.noteHeader(header('x-seq'));
    return {
      status: response.status,
      data: data as T,
      headers: response.headers,
      etag: header('etag'),
      location: header('location'),
      requestId: header('x-request-id'),
      replayed: header('idempotent-replayed') === 'true',
      idempotencyKey: key,
      attempts,
    };
  }

  /** One attempt with its own timeout (covering the body too); the caller's signal aborts it. */
  private async attempt(
    url: string,
    init: Omit<FetchInit, 'signal'>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<AttemptResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.fetch(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { kind: 'response', response, text };
    } catch (error) {
      if (signal?.aborted) throw new RequestAbortedError({ cause: signal.reason });
      if (timedOut) return { kind: 'timeout' };
      return { kind: 'network-error', error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

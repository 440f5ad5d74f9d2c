import type { FieldError, Problem, ProblemCode } from './types.js';

/** Base class of every error the client throws. */
export class TallyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TallyError';
  }
}

/**
 * The server answered with a problem (RFC 9457). Subclasses exist for every `code` of API.md §1, so
 * callers can `catch (e) { if (e instanceof SplitMismatchError) … }` or switch on `e.code`.
 */
export class ProblemError extends TallyError {
  readonly problem: Problem;
  readonly status: number;
  readonly code: Problem['code'];
  /** `Retry-After` of the response in milliseconds, when it carried one. */
  readonly retryAfterMs: number | undefined;

  constructor(problem: Problem, options: { retryAfterMs?: number } = {}) {
    super(`${problem.status} ${problem.code}: ${problem.detail || problem.title}`);
    this.name = 'ProblemError';
    this.problem = problem;
    this.status = problem.status;
    this.code = problem.code;
    this.retryAfterMs = options.retryAfterMs;
  }

  get requestId(): string | undefined {
    return this.problem.requestId;
  }

  /** Per-field failures (on `validation_failed`, sometimes `not_a_member`/`split_mismatch`). */
  get errors(): FieldError[] {
    return this.problem.errors ?? [];
  }
}

/** 400 `malformed_json`. */
export class MalformedJsonError extends ProblemError {
  declare readonly code: 'malformed_json';
  override name = 'MalformedJsonError';
}

/** 400 `idempotency_key_missing`. */
export class IdempotencyKeyMissingError extends ProblemError {
  declare readonly code: 'idempotency_key_missing';
  override name = 'IdempotencyKeyMissingError';
}

/** 400 `idempotency_key_invalid`. */
export class IdempotencyKeyInvalidError extends ProblemError {
  declare readonly code: 'idempotency_key_invalid';
  override name = 'IdempotencyKeyInvalidError';
}

/** 400 `min_seq_invalid`: an `X-Min-Seq` that is not `<groupId>:<seq>` entries, or names over 20 groups. */
export class MinSeqInvalidError extends ProblemError {
  declare readonly code: 'min_seq_invalid';
  override name = 'MinSeqInvalidError';
}

/** 401 `unauthenticated`: no, invalid or expired token (after the one automatic refresh). */
export class UnauthenticatedError extends ProblemError {
  declare readonly code: 'unauthenticated';
  override name = 'UnauthenticatedError';
}

/** 401 `invalid_credentials`: wrong email or password at login. */
export class InvalidCredentialsError extends ProblemError {
  declare readonly code: 'invalid_credentials';
  override name = 'InvalidCredentialsError';
}

/** 404 `not_found`: does not exist, or the caller may not see it. */
export class NotFoundError extends ProblemError {
  declare readonly code: 'not_found';
  override name = 'NotFoundError';
}

/** 409 `idempotency_key_reused`: the key was used for a different request. */
export class IdempotencyKeyReusedError extends ProblemError {
  declare readonly code: 'idempotency_key_reused';
  override name = 'IdempotencyKeyReusedError';
}

/** 409 `idempotency_key_in_progress`: retried automatically; thrown only inside `RetryExhaustedError`. */
export class IdempotencyKeyInProgressError extends ProblemError {
  declare readonly code: 'idempotency_key_in_progress';
  override name = 'IdempotencyKeyInProgressError';
}

/**
 * 403 `forbidden`: the caller may see the resource but not do this: deleting another member's
 * comment; taking over a pending member that is not theirs to take (added with another email, their
 * own email not verified yet, or a place kept by name while they are a member already; API.md §3.3).
 */
export class ForbiddenError extends ProblemError {
  declare readonly code: 'forbidden';
  override name = 'ForbiddenError';
}

/** 409 `email_taken`: registration, or an email change, with an address another account has. */
export class EmailTakenError extends ProblemError {
  declare readonly code: 'email_taken';
  override name = 'EmailTakenError';
}

/** 409 `member_has_balance`: settle up before removing the member. */
export class MemberHasBalanceError extends ProblemError {
  declare readonly code: 'member_has_balance';
  override name = 'MemberHasBalanceError';
}

/** 409 `member_claimed`: another account already took over this pending member. */
export class MemberClaimedError extends ProblemError {
  declare readonly code: 'member_claimed';
  override name = 'MemberClaimedError';
}

/** 409 `group_archived`: the group is archived; it takes writes again once unarchived (API.md §3). */
export class GroupArchivedError extends ProblemError {
  declare readonly code: 'group_archived';
  override name = 'GroupArchivedError';
}

/** 412 `precondition_failed`: `If-Match` does not match the current ETag. */
export class PreconditionFailedError extends ProblemError {
  declare readonly code: 'precondition_failed';
  override name = 'PreconditionFailedError';
}

/** 413 `payload_too_large`. */
export class PayloadTooLargeError extends ProblemError {
  declare readonly code: 'payload_too_large';
  override name = 'PayloadTooLargeError';
}

/** 415 `unsupported_media_type`. */
export class UnsupportedMediaTypeError extends ProblemError {
  declare readonly code: 'unsupported_media_type';
  override name = 'UnsupportedMediaTypeError';
}

/** 422 `validation_failed` (see `errors`). */
export class ValidationFailedError extends ProblemError {
  declare readonly code: 'validation_failed';
  override name = 'ValidationFailedError';
}

/** 422 `not_a_member`. */
export class NotAMemberError extends ProblemError {
  declare readonly code: 'not_a_member';
  override name = 'NotAMemberError';
}

/** 422 `split_mismatch`. */
export class SplitMismatchError extends ProblemError {
  declare readonly code: 'split_mismatch';
  override name = 'SplitMismatchError';
}

/** 422 `rate_unavailable`: converted balances need a rate no source has (`errors` names each currency). */
export class RateUnavailableError extends ProblemError {
  declare readonly code: 'rate_unavailable';
  override name = 'RateUnavailableError';
}

/**
 * 429 `rate_limited`: retried automatically (honouring `Retry-After`) until the attempt cap. At
 * login (never retried) it means the email or the IP is locked by the login throttle (API.md §2):
 * `retryAfterMs` says when one more attempt is allowed.
 */
export class RateLimitedError extends ProblemError {
  declare readonly code: 'rate_limited';
  override name = 'RateLimitedError';
}

/** 503 `unavailable`: retried automatically until the attempt cap. */
export class UnavailableError extends ProblemError {
  declare readonly code: 'unavailable';
  override name = 'UnavailableError';
}

/** 426 `upgrade_required`: `GET /v1/ws` was requested without a WebSocket upgrade. */
export class UpgradeRequiredError extends ProblemError {
  declare readonly code: 'upgrade_required';
  override name = 'UpgradeRequiredError';
}

/**
 * 410 `resync_required`: the events after the `afterSeq` asked for are no longer kept
 * (`EVENT_RETENTION_DAYS`). Read the group's state again and continue the log from its `asOfSeq`.
 */
export class ResyncRequiredError extends ProblemError {
  declare readonly code: 'resync_required';
  override name = 'ResyncRequiredError';
}

/** 500 `internal_error`. */
export class InternalServerError extends ProblemError {
  declare readonly code: 'internal_error';
  override name = 'InternalServerError';
}

/** 400 `invalid_reset_token`: the reset link was used already, expired, or never existed; ask for a new one. */
export class InvalidResetTokenError extends ProblemError {
  declare readonly code: 'invalid_reset_token';
  override name = 'InvalidResetTokenError';
}

/** 403 `wrong_password`: the current password given to `me.changePassword` is wrong. */
export class WrongPasswordError extends ProblemError {
  declare readonly code: 'wrong_password';
  override name = 'WrongPasswordError';
}

/** 422 `limit_exceeded`: the request would go over a stated bound; `limit` names it (API.md §9). */
export class LimitExceededError extends ProblemError {
  declare readonly code: 'limit_exceeded';
  override name = 'LimitExceededError';

  /** The bound: its name in the contract and its value. */
  get limit(): { name: string; max: number } | undefined {
    return (this.problem as { limit?: { name: string; max: number } }).limit;
  }
}

/**
 * 403 `insufficient_scope`: the client's API key lacks the scope of the request (`read` for GET,
 * `write` for the rest), or the route is one only a signed-in person may call (API.md §2.6).
 */
export class InsufficientScopeError extends ProblemError {
  declare readonly code: 'insufficient_scope';
  override name = 'InsufficientScopeError';
}

/** 422 `receipt_unreadable`: the upload looks like an image but cannot be decoded (API.md §16). */
export class ReceiptUnreadableError extends ProblemError {
  declare readonly code: 'receipt_unreadable';
  override name = 'ReceiptUnreadableError';
}

/** 422 `unknown_category`: a `categoryId` (or a merge's `into`) that is no category of the group (API.md §14). */
export class UnknownCategoryError extends ProblemError {
  declare readonly code: 'unknown_category';
  override name = 'UnknownCategoryError';
}

/** 409 `category_name_taken`: the group already has a category of that name, ignoring case (API.md §14). */
export class CategoryNameTakenError extends ProblemError {
  declare readonly code: 'category_name_taken';
  override name = 'CategoryNameTakenError';
}

/** A response that is not a Tally problem (e.g. a proxy's HTML 502); `code` is `http_error`. */
export class HttpError extends ProblemError {
  constructor(problem: Problem, options?: { retryAfterMs?: number }) {
    super(problem, options);
    this.name = 'HttpError';
  }
}

type ProblemErrorClass = new (problem: Problem, options?: { retryAfterMs?: number }) => ProblemError;

/** The error class of every problem code. */
export const PROBLEM_ERRORS: Readonly<Record<ProblemCode, ProblemErrorClass>> = {
  malformed_json: MalformedJsonError,
  idempotency_key_missing: IdempotencyKeyMissingError,
  idempotency_key_invalid: IdempotencyKeyInvalidError,
  min_seq_invalid: MinSeqInvalidError,
  unauthenticated: UnauthenticatedError,
  invalid_credentials: InvalidCredentialsError,
  not_found: NotFoundError,
  forbidden: ForbiddenError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  idempotency_key_in_progress: IdempotencyKeyInProgressError,
  email_taken: EmailTakenError,
  member_has_balance: MemberHasBalanceError,
  member_claimed: MemberClaimedError,
  precondition_failed: PreconditionFailedError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  validation_failed: ValidationFailedError,
  not_a_member: NotAMemberError,
  split_mismatch: SplitMismatchError,
  rate_unavailable: RateUnavailableError,
  rate_limited: RateLimitedError,
  unavailable: UnavailableError,
  resync_required: ResyncRequiredError,
  upgrade_required: UpgradeRequiredError,
  internal_error: InternalServerError,
  invalid_reset_token: InvalidResetTokenError,
  wrong_password: WrongPasswordError,
  insufficient_scope: InsufficientScopeError,
  limit_exceeded: LimitExceededError,
  receipt_unreadable: ReceiptUnreadableError,
  group_archived: GroupArchivedError,
  unknown_category: UnknownCategoryError,
  category_name_taken: CategoryNameTakenError,
};

/** The typed error for a problem: the class of its code, or `HttpError` for anything else. */
export function problemErrorOf(problem: Problem, options?: { retryAfterMs?: number }): ProblemError {
  const Class = Object.hasOwn(PROBLEM_ERRORS, problem.code)
    ? PROBLEM_ERRORS[problem.code as ProblemCode]
    : HttpError;
  return new Class(problem, options);
}

/**
 * What went wrong, in one line: the error's message followed by those of its causes, e.g.
 * `fetch failed: connect ECONNREFUSED 127.0.0.1:1` (undici puts the reason of a failed `fetch` in
 * `cause`, and sometimes an `AggregateError` of one reason per address in that).
 */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    // Duck-typed, not `instanceof Error`: an error of another realm (a worker, a vm) counts too.
    if (typeof current !== 'object' || typeof (current as { message?: unknown }).message !== 'string') {
      parts.push(String(current));
      break;
    }
    const { message, name, code, errors, cause } = current as {
      message: string;
      name?: unknown;
      code?: unknown;
      errors?: unknown;
      cause?: unknown;
    };
    let text = message || (typeof code === 'string' ? code : '') || String(name ?? '');
    if (Array.isArray(errors) && errors.length > 0) {
      const reasons = [...new Set(errors.map((e) => describeCause(e)))];
      text = message ? `${message} (${reasons.join('; ')})` : reasons.join('; ');
    }
    if (text && parts.at(-1) !== text) parts.push(text);
    current = cause;
  }
  return parts.join(': ') || 'unknown error';
}

/**
 * The request never got an HTTP response (connection refused or reset, DNS failure, …). The message
 * carries the reason (`POST /v1/expenses: fetch failed: connect ECONNREFUSED 127.0.0.1:1`); `cause`
 * is what `fetch` threw.
 */
export class NetworkError extends TallyError {
  override name = 'NetworkError';
}

/** One attempt took longer than the per-attempt timeout. */
export class TimeoutError extends TallyError {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` fired; `cause` is the signal's reason. */
export class RequestAbortedError extends TallyError {
  constructor(options?: { cause?: unknown }) {
    super('the request was aborted', options);
    this.name = 'RequestAbortedError';
  }
}

/**
 * A realtime subscription ended before the server confirmed it (what `rt.subscribe(…).confirmed`
 * rejects with): the caller is not a member of the group (`not_found`), was removed from it
 * (`removed`), or the app unsubscribed or subscribed to the group again first (`unsubscribed`).
 */
export class SubscriptionEndedError extends TallyError {
  readonly groupId: string;
  readonly reason: 'removed' | 'not_found' | 'unsubscribed';
  constructor(groupId: string, reason: 'removed' | 'not_found' | 'unsubscribed') {
    super(`the subscription to ${groupId} ended before it was confirmed: ${reason}`);
    this.name = 'SubscriptionEndedError';
    this.groupId = groupId;
    this.reason = reason;
  }
}

/** A success response whose body is not the JSON the endpoint promises. */
export class UnexpectedResponseError extends TallyError {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'UnexpectedResponseError';
    this.status = status;
  }
}

/**
 * Every attempt of an operation failed in a retryable way (timeout, network error, 409
 * `idempotency_key_in_progress`, 429, 5xx) and the attempt cap was reached. For a keyed write the
 * operation may or may not have taken effect: retry it later with the same `idempotencyKey` to find out.
 */
export class RetryExhaustedError extends TallyError {
  readonly attempts: number;
  /** The problem of the last attempt that got one (undefined when none got a response). */
  readonly lastProblem: Problem | undefined;
  /** The failure of the last attempt: a `ProblemError`, `NetworkError` or `TimeoutError`. */
  readonly lastError: TallyError;
  /** The key every attempt carried, for a later retry of the same operation. */
  readonly idempotencyKey: string | undefined;

  constructor(options: {
    attempts: number;
    lastError: TallyError;
    lastProblem: Problem | undefined;
    idempotencyKey: string | undefined;
  }) {
    super(`gave up after ${options.attempts} attempts: ${options.lastError.message}`, {
      cause: options.lastError,
    });
    this.name = 'RetryExhaustedError';
    this.attempts = options.attempts;
    this.lastError = options.lastError;
    this.lastProblem = options.lastProblem;
    this.idempotencyKey = options.idempotencyKey;
  }
}

/** The stable, machine-readable error codes of API.md §1. Clients switch on these strings. */
export type ErrorCode =
  | 'malformed_json'
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'min_seq_invalid'
  | 'unauthenticated'
  | 'invalid_credentials'
  | 'not_found'
  | 'forbidden'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_progress'
  | 'email_taken'
  | 'member_has_balance'
  | 'member_claimed'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'not_a_member'
  | 'split_mismatch'
  | 'rate_unavailable'
  | 'rate_limited'
  | 'unavailable'
  | 'resync_required'
  | 'upgrade_required'
  | 'internal_error'
  | 'invalid_reset_token'
  | 'wrong_password'
  | 'limit_exceeded'
  | 'insufficient_scope'
  | 'receipt_unreadable'
  | 'group_archived'
  | 'unknown_category'
  | 'category_name_taken';

export type FieldError = { path: string; message: string };

/** Which stated bound (API.md §9 "Bounds") a request ran into, and its value. */
export type LimitInfo = { name: string; max: number };

const TITLES: Record<ErrorCode, string> = {
  malformed_json: 'Malformed JSON',
  idempotency_key_missing: 'Idempotency key missing',
  idempotency_key_invalid: 'Idempotency key invalid',
  min_seq_invalid: 'X-Min-Seq invalid',
  unauthenticated: 'Unauthenticated',
  invalid_credentials: 'Invalid credentials',
  not_found: 'Not found',
  forbidden: 'Forbidden',
  idempotency_key_reused: 'Idempotency key reused',
  idempotency_key_in_progress: 'Idempotency key in progress',
  email_taken: 'Email taken',
  member_has_balance: 'Member has balance',
  member_claimed: 'Member claimed',
  precondition_failed: 'Precondition failed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Validation failed',
  not_a_member: 'Not a member',
  split_mismatch: 'Split mismatch',
  rate_unavailable: 'Rate unavailable',
  rate_limited: 'Rate limited',
  unavailable: 'Service unavailable',
  resync_required: 'Resync required',
  upgrade_required: 'Upgrade required',
  internal_error: 'Internal error',
  invalid_reset_token: 'Invalid reset token',
  wrong_password: 'Wrong password',
  limit_exceeded: 'Limit exceeded',
  insufficient_scope: 'Insufficient scope',
  receipt_unreadable: 'Receipt unreadable',
  group_archived: 'Group archived',
  unknown_category: 'Unknown category',
  category_name_taken: 'Category name taken',
};

/** The one error type of the service; the HTTP edge turns it into problem+json. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** On `limit_exceeded` (and a `payload_too_large` that names its bound): the bound. */
  readonly limit: LimitInfo | undefined;

  constructor(
    code: ErrorCode,
    status: number,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; limit?: LimitInfo } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.limit = options.limit;
  }

  get title(): string {
    return TITLES[this.code];
  }
}

export const notFound = (what = 'Resource'): AppError => new AppError('not_found', 404, `${what} not found.`);

export const validationFailed = (errors: FieldError[], detail = 'The request is not valid.'): AppError =>
  new AppError('validation_failed', 422, detail, { errors });

export const unavailable = (detail: string, retryAfterSeconds = 1): AppError =>
  new AppError('unavailable', 503, detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/**
 * `422 limit_exceeded`: the request would go over one of the stated bounds of API.md §9 (schedules
 * per group, rows per import, …). `name` is the bound's name in the contract, `max` its value.
 */
export const limitExceeded = (name: string, max: number, detail: string): AppError =>
  new AppError('limit_exceeded', 422, detail, { limit: { name, max } });

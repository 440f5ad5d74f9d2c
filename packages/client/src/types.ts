/**
 * Request and response types of the Tally API v1 (API.md). Money is always an integer count of minor
 * units; ids are opaque strings; timestamps are RFC 3339 UTC strings.
 */

// ---- common --------------------------------------------------------------------------------------

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One page of a cursor-paginated list (API.md §1). */
export type Page<T> = {
  data: T[];
  /** Pass as `cursor` to get the next page; `null` on the last page. */
  nextCursor: string | null;
};

/** `?limit=` (1–100, server default 20) and `?cursor=` of every list. */
export type ListOptions = {
  limit?: number;
  cursor?: string;
};

/** The stable, machine-readable problem codes of API.md §1 (plus `internal_error` for 500). */
export type ProblemCode =
  | 'malformed_json'
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'unauthenticated'
  | 'invalid_credentials'
  | 'not_found'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_progress'
  | 'email_taken'
  | 'member_has_balance'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'not_a_member'
  | 'split_mismatch'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error';

export type FieldError = { path: string; message: string };

/**
 * RFC 9457 problem details. `code` is one of {@link ProblemCode} when the Tally server answered; a
 * response that was not a problem (e.g. an HTML 502 from a proxy) is described with `code: 'http_error'`.
 */
export type Problem = {
  type: string;
  title: string;
  status: number;
  code: ProblemCode | 'http_error';
  detail: string;
  requestId?: string;
  errors?: FieldError[];
};

// ---- auth ----------------------------------------------------------------------------------------

export type User = { id: string; email: string; name: string; createdAt: string };

export type Session = {
  user: User;
  accessToken: string;
  refreshToken: string;
  /** Access token lifetime in seconds. */
  expiresIn: number;
};

export type RegisterRequest = { email: string; name: string; password: string };
export type LoginRequest = { email: string; password: string };

// ---- groups --------------------------------------------------------------------------------------

export type Member = { userId: string; name: string; joinedAt: string };

export type Group = {
  id: string;
  name: string;
  /** Empty string when not set. */
  description: string;
  currency: string;
  /** Current members, in the order they joined. */
  members: Member[];
  createdAt: string;
  updatedAt: string;
  /** Incremented by every change; the ETag is `"v<version>"`. */
  version: number;
};

export type CreateGroupRequest = { name: string; currency?: string; description?: string };
export type UpdateGroupRequest = { name?: string; description?: string };
/** Add a registered user by id or by email (exactly one of the two). */
export type AddMemberRequest = { userId: string; email?: never } | { email: string; userId?: never };

// ---- expenses ------------------------------------------------------------------------------------

export type Payer = { userId: string; amount: number };
export type Share = { userId: string; owed: number };

export type Split =
  | { type: 'equal'; between: string[] }
  | { type: 'exact'; between: { userId: string; amount: number }[] }
  | { type: 'percent'; between: { userId: string; percent: number }[] }
  | { type: 'shares'; between: { userId: string; shares: number }[] };

export type SplitType = Split['type'];

/** Body of `POST /v1/expenses` and `PUT /v1/expenses/{id}`. */
export type ExpenseRequest = {
  groupId: string;
  description: string;
  /** Free text up to 64 characters. */
  category?: string | null;
  amount: number;
  /** Defaults to the group's currency. */
  currency?: string;
  /** One member's user id (who paid it all), or payers whose amounts add up to `amount`. */
  paidBy: string | Payer[];
  /** Defaults to now. */
  occurredAt?: string;
  split: Split;
};

/** Body of `PATCH /v1/expenses/{id}`: any subset of the fields except `groupId` (at least one). */
export type ExpensePatch = Partial<Omit<ExpenseRequest, 'groupId'>>;

export type Expense = {
  id: string;
  groupId: string;
  description: string;
  category: string | null;
  amount: number;
  currency: string;
  /** Always the list form. */
  paidBy: Payer[];
  occurredAt: string;
  split: Split;
  /** What each participant owes; adds up to `amount` exactly. */
  shares: Share[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
};

// ---- settlements ---------------------------------------------------------------------------------

export type SettlementRequest = {
  groupId: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
  currency?: string;
  note?: string;
};

export type Settlement = {
  id: string;
  groupId: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
  currency: string;
  /** Empty string when not set. */
  note: string;
  createdBy: string;
  createdAt: string;
};

// ---- balances ------------------------------------------------------------------------------------

export type MemberNet = {
  userId: string;
  /** Positive: the group owes this member; negative: the member owes the group. */
  net: number;
};
export type Transfer = { from: string; to: string; amount: number };
export type CurrencyBalances = { currency: string; members: MemberNet[]; simplified: Transfer[] };

export type Balances = {
  groupId: string;
  /** The group's event seq these balances reflect. */
  asOfSeq: number;
  currencies: CurrencyBalances[];
};

// ---- events --------------------------------------------------------------------------------------

export type EventType =
  | 'group.updated'
  | 'member.added'
  | 'member.removed'
  | 'expense.created'
  | 'expense.updated'
  | 'expense.deleted'
  | 'settlement.created'
  | 'settlement.deleted';

/** `data` of each event type (API.md §8; the OpenAPI `Event` schema). */
export type EventDataByType = {
  'group.updated': { group: Omit<Group, 'members'> };
  'member.added': { member: Member };
  'member.removed': { userId: string };
  'expense.created': { expense: Expense; balances: CurrencyBalances[]; restored?: true };
  'expense.updated': { expense: Expense; balances: CurrencyBalances[] };
  'expense.deleted': { expense: Expense; deletedAt: string; balances: CurrencyBalances[] };
  'settlement.created': { settlement: Settlement; balances: CurrencyBalances[] };
  'settlement.deleted': { settlement: Settlement; deletedAt: string; balances: CurrencyBalances[] };
};

/** One entry of a group's durable, ordered log; `seq` is per group, strictly increasing, without gaps. */
export type GroupEvent = {
  [T in EventType]: {
    id: string;
    seq: number;
    type: T;
    groupId: string;
    actorId: string;
    occurredAt: string;
    data: EventDataByType[T];
  };
}[EventType];

export type EventsOptions = ListOptions & {
  /** Only events with `seq > afterSeq`. `cursor` (from a previous page) wins over it. */
  afterSeq?: number;
};

// ---- WebSocket protocol (API.md §8) --------------------------------------------------------------

export type ServerMessage =
  | { type: 'welcome'; connectionId: string; userId: string; heartbeatMs: number }
  | { type: 'event'; groupId: string; seq: number; event: GroupEvent }
  | { type: 'subscribed'; id?: string; groupId: string; seq: number }
  | { type: 'unsubscribed'; id?: string; groupId: string; reason?: 'removed' }
  | { type: 'presence'; groupId: string; online: string[] }
  | { type: 'pong'; id?: string }
  | { type: 'authenticated'; id?: string; expiresAt: string }
  | { type: 'error'; id?: string; code: string };

export type ClientMessage =
  | { type: 'subscribe'; id: string; groupId: string; afterSeq?: number }
  | { type: 'unsubscribe'; id: string; groupId: string }
  | { type: 'ping'; id: string }
  | { type: 'auth'; id: string; accessToken: string };

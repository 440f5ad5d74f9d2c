/**
 * Request and response types of the Tally API v1 (docs/API.md), under the SDK's names. The wire
 * types themselves are generated from the OpenAPI document into `./generated/openapi.ts`
 * (`npm run gen:types`); this file only names them, and narrows them where the SDK knows more.
 * Money is always an integer count of minor units; ids are opaque strings; timestamps are RFC 3339
 * UTC strings.
 */
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

// ---- common --------------------------------------------------------------------------------------

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One page of a cursor-paginated list (API.md §1): `GroupPage`, `ExpensePage`, … with items `T`. */
export type Page<T> = Omit<Schemas['GroupPage'], 'data'> & { data: T[] };

/** `?limit=` (1–100, server default 20) and `?cursor=` of every list. */
export type ListOptions = NonNullable<operations['listGroups']['parameters']['query']>;

/** The expense list's `limit`, `cursor` and search filters (API.md §5.1). */
export type ExpenseListOptions = NonNullable<operations['listExpenses']['parameters']['query']>;

/** A comment on an expense or a settlement (API.md §5.2). */
export type Comment = Schemas['Comment'];

/** An expense's receipt with its short-lived download links (API.md §16). */
export type Receipt = Schemas['ReceiptWithLinks'];
/** A category (API.md §14): a default (`food`…) or one of a group's own (`cat_…`). */
export type Category = Schemas['Category'];
export type CategoryRequest = Schemas['CategoryRequest'];
export type CategoryPatch = Schemas['PatchCategoryRequest'];
export type CategoryMerged = Schemas['CategoryMerged'];
/** A group's statistics (API.md §14.2) and the caller's across their groups. */
export type GroupStats = Schemas['GroupStats'];
export type MyStats = Schemas['MyStats'];
export type GroupStatsOptions = NonNullable<operations['getGroupStats']['parameters']['query']>;
export type MyStatsOptions = NonNullable<operations['getMyStats']['parameters']['query']>;

/** The stable, machine-readable problem codes of API.md §1 (plus `internal_error` for 500). */
export type ProblemCode = Schemas['Problem']['code'];

export type FieldError = Schemas['FieldError'];

/**
 * RFC 9457 problem details. `code` is one of {@link ProblemCode} when the Tally server answered; a
 * response that was not a problem (e.g. an HTML 502 from a proxy) is described with `code: 'http_error'`
 * (and may have no `requestId`).
 */
export type Problem = Omit<Schemas['Problem'], 'code' | 'requestId'> & {
  code: ProblemCode | 'http_error';
  requestId?: string;
};

// ---- auth ----------------------------------------------------------------------------------------

export type User = Schemas['User'];
export type Session = Schemas['Session'];
export type RegisterRequest = Schemas['RegisterRequest'];
export type LoginRequest = Schemas['LoginRequest'];
/** A signed-in device (API.md §2, `GET /v1/me/sessions`). */
export type DeviceSession = Schemas['DeviceSession'];
/** An API key as listed (API.md §2.6); never its secret. */
export type ApiKey = Schemas['ApiKey'];
/** A new API key with its `secret`, which only this answer carries. */
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type CreateApiKeyRequest = Schemas['CreateApiKeyRequest'];

// ---- groups --------------------------------------------------------------------------------------

export type Member = Schemas['Member'];
export type Group = Schemas['Group'];
export type CreateGroupRequest = Schemas['CreateGroupRequest'];
export type UpdateGroupRequest = Schemas['PatchGroupRequest'];

/**
 * Add a registered user by id or by email, or someone without an account by name (a pending
 * member, with an optional email). The document says "one of these" with `required` lists, which
 * openapi-typescript does not turn into a union, so the union is spelt out here from the generated
 * field types.
 */
export type AddMemberRequest =
  | { userId: NonNullable<Schemas['AddMemberRequest']['userId']>; email?: never; name?: never }
  | { email: NonNullable<Schemas['AddMemberRequest']['email']>; userId?: never; name?: never }
  | {
      name: NonNullable<Schemas['AddMemberRequest']['name']>;
      email?: NonNullable<Schemas['AddMemberRequest']['email']>;
      userId?: never;
    };

// ---- invites and claims (API.md §3.1–§3.3) --------------------------------------------------------

export type MemberStatus = Member['status'];
export type Invite = Schemas['Invite'];
export type CreatedInvite = Schemas['CreatedInvite'];
export type InvitePreview = Schemas['InvitePreview'];
export type CreateInviteRequest = Schemas['CreateInviteRequest'];
export type AcceptInviteRequest = Schemas['AcceptInviteRequest'];
export type ClaimableMember = Schemas['ClaimableMemberList']['data'][number];

// ---- activity (API.md §8a) -----------------------------------------------------------------------
export type ActivityItem = Schemas['ActivityItem'];
export type ActivityPage = Schemas['ActivityPage'];
export type ActivityUnread = Schemas['ActivityUnread'];

// ---- expenses ------------------------------------------------------------------------------------

export type Payer = Schemas['Payer'];
export type Share = Schemas['Share'];
type SplitOf<T extends Schemas['Split']['type']> = Extract<Schemas['Split'], { type: T }>;

/*
 * The split variants have names (interfaces, not aliases), so a wrong split is reported by the one
 * it was meant to be: "Property 'shares' is missing … but required in type 'SharesEntry'", "… is not
 * assignable to type 'Split'". Each is checked against the generated schema (below).
 */

/** Everyone in `between` owes the same (the remainder goes to the ones listed first). */
export interface EqualSplit {
  type: 'equal';
  /** User ids. */
  between: string[];
}
/** One entry of an {@link ExactSplit}: what this user owes, in minor units. */
export interface ExactEntry {
  userId: string;
  amount: number;
}
/** Each owes an exact amount; the amounts add up to the expense's `amount` (else `split_mismatch`). */
export interface ExactSplit {
  type: 'exact';
  between: ExactEntry[];
}
/** One entry of a {@link PercentSplit}. */
export interface PercentEntry {
  userId: string;
  percent: number;
}
/** Each owes a percentage; the percents add up to 100 (else `split_mismatch`). */
export interface PercentSplit {
  type: 'percent';
  between: PercentEntry[];
}
/** One entry of a {@link SharesSplit}. */
export interface SharesEntry {
  userId: string;
  shares: number;
}
/** Each owes in proportion to their shares. */
export interface SharesSplit {
  type: 'shares';
  between: SharesEntry[];
}
/** One line of an {@link ItemsSplit}: its amount and who shares it (ids equally, or by shares). */
export interface ReceiptItem {
  description?: string;
  amount: number;
  between: (string | SharesEntry)[];
}
/**
 * An itemized receipt: each item divided among its people, `tax` and `tip` spread over the items in
 * proportion, rounded once; items + tax + tip = the expense's `amount` (else `split_mismatch`).
 */
export interface ItemsSplit {
  type: 'items';
  items: ReceiptItem[];
  tax?: number;
  tip?: number;
}
/** How an expense is divided: a union on `type`. */
export type Split = EqualSplit | ExactSplit | PercentSplit | SharesSplit | ItemsSplit;
export type SplitType = Split['type'];

/** Compile-time proof that each named split is exactly its variant of the generated schema. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AllTrue<T extends readonly true[]> = T;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check, used by nothing
type SplitsMatchTheSchema = AllTrue<
  [
    Same<EqualSplit, SplitOf<'equal'>>,
    Same<ExactSplit, SplitOf<'exact'>>,
    Same<PercentSplit, SplitOf<'percent'>>,
    Same<SharesSplit, SplitOf<'shares'>>,
    Same<ItemsSplit, SplitOf<'items'>>,
    Same<Split, Schemas['ExpenseRequest']['split']>,
  ]
>;

/** Body of `POST /v1/expenses` and `PUT /v1/expenses/{id}`. */
export interface ExpenseRequest extends Omit<Schemas['ExpenseRequest'], 'split'> {
  split: Split;
}

/** Body of `PATCH /v1/expenses/{id}`: any subset of the fields except `groupId` (at least one). */
export interface ExpensePatch extends Omit<Schemas['PatchExpenseRequest'], 'split'> {
  split?: Split;
}

/** Body of `POST /v1/expenses/{id}/duplicate`: what the copy sets differently (its date: by default now). */
export type DuplicateExpenseRequest = Schemas['DuplicateExpenseRequest'];

export interface Expense extends Omit<Schemas['Expense'], 'split'> {
  /** As it was sent. */
  split: Split;
}

// ---- settlements ---------------------------------------------------------------------------------

export type SettlementRequest = Schemas['SettlementRequest'];
export type Settlement = Schemas['Settlement'];

// ---- balances ------------------------------------------------------------------------------------

export type MemberNet = Schemas['MemberNet'];
export type Transfer = Schemas['Transfer'];
export type CurrencyBalances = Schemas['CurrencyBalances'];
export type Balances = Schemas['Balances'];
/** Balances converted into one currency (`balances(groupId, { in })`), with the rates used. */
export type ConvertedBalances = Schemas['ConvertedBalances'];
export type UsedRate = Schemas['UsedRate'];
/** A group's own exchange rates: `rates[c]` units of currency `c` per one `base`, decimal strings. */
export type GroupRates = Schemas['GroupRates'];
/** `setRates`' body; each rate a decimal string such as `"1.0823"` (never a float). */
export type PutRatesRequest = Omit<Schemas['PutRatesRequest'], 'rates'> & { rates: Record<string, string> };

// ---- events --------------------------------------------------------------------------------------

/** One entry of a group's durable, ordered log; `seq` is per group, strictly increasing, without gaps. */
export type GroupEvent = Schemas['Event'];
export type EventType = GroupEvent['type'];

/** `data` of each event type (API.md §8; the OpenAPI `Event` schema). */
export type EventDataByType = { [T in EventType]: Extract<GroupEvent, { type: T }>['data'] };

export type EventsOptions = NonNullable<operations['listEvents']['parameters']['query']>;

// ---- WebSocket protocol (API.md §8) --------------------------------------------------------------

export type ServerMessage = Schemas['ServerMessage'];
export type ClientMessage = Schemas['ClientMessage'];

// ---- recurring expenses (API.md §6a) -------------------------------------------------------------

/** What each occurrence copies: the body of `POST /v1/expenses` without `groupId` and `occurredAt`. */
export interface RecurringExpenseTemplate
  extends Omit<Schemas['RecurringExpenseRequest']['expense'], 'split'> {
  split: Split;
}

/**
 * `every`, `startsOn` and `until` (local dates `YYYY-MM-DD`), `timeZone` (an IANA name in any case,
 * not a UTC offset; read back as the zone's one name, e.g. `Europe/Berlin`, `UTC`, `Asia/Kolkata`).
 */
export type RecurringSchedule = Schemas['RecurringExpenseRequest']['schedule'];

/** Body of `POST /v1/groups/{groupId}/recurring`. */
export interface RecurringExpenseRequest {
  expense: RecurringExpenseTemplate;
  schedule: RecurringSchedule;
}

/** Body of `PATCH /v1/recurring/{recurringId}`: some template fields, some schedule fields. */
export interface RecurringExpensePatch {
  expense?: Partial<RecurringExpenseTemplate>;
  schedule?: Partial<RecurringSchedule>;
}

export interface RecurringExpense extends Omit<Schemas['RecurringExpense'], 'expense'> {
  /** As it was sent. */
  expense: RecurringExpenseTemplate;
}

/** A row of an imported file that was not imported, and why (API.md §6b). */
export interface ImportRefusal {
  /** The line of the file the row starts on. */
  line: number;
  /** Why it was not imported (at most 300 characters). */
  reason: string;
}

/**
 * An import's report (API.md §6b): created, already present and refused rows; `refused` lists the
 * first 20 refusals, `refusedCount` counts them all (`ImportsApi.refusals` pages them).
 */
export type ImportReport = Omit<Schemas['ImportReport'], 'status' | 'refused'> & {
  status: 'running' | 'completed' | 'failed';
  refusedCount: number;
  refused: ImportRefusal[];
};
/** The body of `POST /v1/groups/{groupId}/imports`. */
export type ImportRequest = Schemas['CreateImportRequest'];

// ---- history of a record (API.md §15) -----------------------------------------------------------

/** One difference from the version before: `paidBy`, `shares`, `split.between` per member (`userId`). */
export type FieldChange = Schemas['FieldChange'];
/** One version of an expense: who, when, its version and ETag, the record, the changes. */
export type ExpenseVersion = Schemas['ExpenseVersion'];
/** One version of a settlement (settlements have no version: `version` and `etag` are null). */
export type SettlementVersion = Schemas['SettlementVersion'];
/** A page of a record's history; `truncated`: older versions are no longer kept (retention). */
export type HistoryPage<V> = { data: V[]; nextCursor: string | null; truncated: boolean };
/** `?limit=` (1–50, server default 20) and `?cursor=` of a history. */
export type HistoryListOptions = NonNullable<operations['getExpenseHistory']['parameters']['query']>;

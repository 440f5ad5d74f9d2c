import { type ConditionalWriteOptions, conditionalWrite } from './conditional-write.js';
import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type {
  ListOptions,
  Page,
  RecurringExpense,
  RecurringExpensePatch,
  RecurringExpenseRequest,
} from './types.js';

const recurringPath = (recurringId: string) => `/v1/recurring/${encodeURIComponent(recurringId)}`;

/**
 * Recurring expenses (API.md §6a): schedules whose occurrences the server creates as ordinary
 * expenses (each with `recurringId`). Every write is a money write: it carries an `Idempotency-Key`
 * (one per call, reused by its retries), so a retried create never makes a second schedule.
 */
export class RecurringApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /**
   * `POST /v1/groups/{groupId}/recurring`; a `startsOn` in the past creates the missed occurrences.
   * `LimitExceededError` (its `limit.name`) when more than 100 would be due at once
   * (`recurringBacklog`) or the group holds 50 recurring expenses already (`schedulesPerGroup`).
   * `schedule.timeZone` comes back as the zone's one name (`europe/berlin` → `Europe/Berlin`).
   */
  async create(
    groupId: string,
    body: RecurringExpenseRequest,
    options: WriteOptions = {},
  ): Promise<RecurringExpense> {
    return (
      await this.http.request<RecurringExpense>({
        ...options,
        method: 'POST',
        path: `/v1/groups/${encodeURIComponent(groupId)}/recurring`,
        body,
      })
    ).data;
  }

  /** `GET /v1/recurring/{recurringId}`; `NotFoundError` once deleted. */
  async get(recurringId: string, options: CallOptions = {}): Promise<RecurringExpense> {
    return (
      await this.http.request<RecurringExpense>({
        ...options,
        method: 'GET',
        path: recurringPath(recurringId),
      })
    ).data;
  }

  /** `GET /v1/groups/{groupId}/recurring`: one page, newest first. */
  async list(groupId: string, options: ListOptions & CallOptions = {}): Promise<Page<RecurringExpense>> {
    const { limit, cursor, ...call } = options;
    return (
      await this.http.request<Page<RecurringExpense>>({
        ...call,
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(groupId)}/recurring`,
        query: { limit, cursor },
      })
    ).data;
  }

  /** Every live recurring expense of a group, newest first. */
  listAll(
    groupId: string,
    options: Omit<ListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<RecurringExpense, void, undefined> {
    return paginate((cursor) => this.list(groupId, { ...options, cursor }));
  }

  /**
   * `PATCH /v1/recurring/{recurringId}`: the template or the schedule, from the next occurrence on;
   * `LimitExceededError` (`recurringBacklog`) for a schedule change that would make more than 100
   * occurrences due at once.
   */
  async patch(
    recurringId: string,
    patch: RecurringExpensePatch,
    options: ConditionalWriteOptions = {},
  ): Promise<RecurringExpense> {
    return (
      await this.http.request<RecurringExpense>(
        conditionalWrite({ method: 'PATCH', path: recurringPath(recurringId), body: patch }, options),
      )
    ).data;
  }

  /** `DELETE /v1/recurring/{recurringId}`: stops it (occurrences created stay); again succeeds again. */
  async delete(recurringId: string, options: ConditionalWriteOptions = {}): Promise<void> {
    await this.http.request<undefined>(
      conditionalWrite({ method: 'DELETE', path: recurringPath(recurringId) }, options),
    );
  }
}

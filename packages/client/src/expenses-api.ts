import { type ConditionalWriteOptions, conditionalWrite } from './conditional-write.js';
import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type {
  DuplicateExpenseRequest,
  Expense,
  ExpenseListOptions,
  ExpensePatch,
  ExpenseRequest,
  Page,
} from './types.js';

const expensePath = (expenseId: string) => `/v1/expenses/${encodeURIComponent(expenseId)}`;

export type { ConditionalWriteOptions };

/**
 * Expenses (API.md §4). Every write is a money write: it carries an `Idempotency-Key` (one per call,
 * reused by its retries), so a retry after a lost response never records a second expense.
 */
export class ExpensesApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `POST /v1/expenses`. */
  async create(body: ExpenseRequest, options: WriteOptions = {}): Promise<Expense> {
    return (await this.http.request<Expense>({ ...options, method: 'POST', path: '/v1/expenses', body }))
      .data;
  }

  /** `GET /v1/expenses/{expenseId}`; `NotFoundError` once deleted. */
  async get(expenseId: string, options: CallOptions = {}): Promise<Expense> {
    return (await this.http.request<Expense>({ ...options, method: 'GET', path: expensePath(expenseId) }))
      .data;
  }

  /**
   * `GET /v1/expenses/{expenseId}` with `If-None-Match: etag`: null when it has not changed (304),
   * else the current expense.
   */
  async getIfChanged(expenseId: string, etag: string, options: CallOptions = {}): Promise<Expense | null> {
    const res = await this.http.request<Expense>({
      ...options,
      method: 'GET',
      path: expensePath(expenseId),
      // An explicit Cache-Control: fetch would add `no-cache` to a conditional request, and the
      // server then never answers 304.
      headers: { ...options.headers, 'If-None-Match': etag, 'Cache-Control': 'max-age=0' },
    });
    return res.status === 304 ? null : res.data;
  }

  /**
   * `GET /v1/groups/{groupId}/expenses`: one page, newest first, searched and filtered (API.md §5.1):
   * `q`, `category`, `categoryId`, `paidBy`, `involves`, `from`, `to`, `updatedAfter` (then oldest change first),
   * `includeDeleted`. Pass the same filters with the `cursor` of the previous page.
   */
  async list(groupId: string, options: ExpenseListOptions & CallOptions = {}): Promise<Page<Expense>> {
    const {
      limit,
      cursor,
      q,
      category,
      categoryId,
      paidBy,
      involves,
      from,
      to,
      updatedAfter,
      includeDeleted,
      ...call
    } = options;
    return (
      await this.http.request<Page<Expense>>({
        ...call,
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(groupId)}/expenses`,
        query: {
          limit,
          cursor,
          q,
          category,
          categoryId,
          paidBy,
          involves,
          from,
          to,
          updatedAfter,
          includeDeleted: includeDeleted === undefined ? undefined : String(includeDeleted),
        },
      })
    ).data;
  }

  /** Every expense of a group that matches the filters, in the list's order (every page followed). */
  listAll(
    groupId: string,
    options: Omit<ExpenseListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<Expense, void, undefined> {
    return paginate((cursor) => this.list(groupId, { ...options, cursor }));
  }

  /**
   * `PUT /v1/expenses/{expenseId}`: replaces the expense, or creates it with that id (8–64 of
   * `A-Za-z0-9_-`) — offline-first clients choose ids this way.
   */
  async put(
    expenseId: string,
    body: ExpenseRequest,
    options: ConditionalWriteOptions = {},
  ): Promise<Expense> {
    return (
      await this.http.request<Expense>(
        conditionalWrite({ method: 'PUT', path: expensePath(expenseId), body }, options),
      )
    ).data;
  }

  /** `PATCH /v1/expenses/{expenseId}`: some fields; the result is validated as a whole. */
  async patch(
    expenseId: string,
    patch: ExpensePatch,
    options: ConditionalWriteOptions = {},
  ): Promise<Expense> {
    return (
      await this.http.request<Expense>(
        conditionalWrite({ method: 'PATCH', path: expensePath(expenseId), body: patch }, options),
      )
    ).data;
  }

  /** `DELETE /v1/expenses/{expenseId}`; deleting a deleted expense succeeds again. */
  async delete(expenseId: string, options: ConditionalWriteOptions = {}): Promise<void> {
    await this.http.request<undefined>(
      conditionalWrite({ method: 'DELETE', path: expensePath(expenseId) }, options),
    );
  }

  /**
   * `POST /v1/expenses/{expenseId}/duplicate`: a copy as a new expense (`exp_…` chosen by the
   * server), dated `body.occurredAt` or now. Keyed: a retry never makes a second copy. Offline, the
   * outbox's `createExpense` with the expense's fields does the same at an id made on the device.
   */
  async duplicate(
    expenseId: string,
    body: DuplicateExpenseRequest = {},
    options: WriteOptions = {},
  ): Promise<Expense> {
    return (
      await this.http.request<Expense>({
        ...options,
        method: 'POST',
        path: `${expensePath(expenseId)}/duplicate`,
        body,
      })
    ).data;
  }

  /** `POST /v1/expenses/{expenseId}/restore`: undoes a delete (a no-op when not deleted). */
  async restore(expenseId: string, options: WriteOptions = {}): Promise<Expense> {
    return (
      await this.http.request<Expense>({
        ...options,
        method: 'POST',
        path: `${expensePath(expenseId)}/restore`,
      })
    ).data;
  }
}

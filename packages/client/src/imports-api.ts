import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type { ImportRefusal, ImportReport, ListOptions, Page } from './types.js';

/** A Splitwise import may run for minutes (10,000 rows): one attempt waits that long for its answer. */
const IMPORT_ATTEMPT_TIMEOUT_MS = 15 * 60_000;

/**
 * Imports (API.md §6b): a Splitwise CSV export into a group, each row an expense or a settlement.
 *
 * `create` is a money write with its own `Idempotency-Key` (one per call, reused by its retries), but
 * it does not go through the outbox: the file can be megabytes, which the outbox would keep in its
 * storage, and nothing is lost without it, since the import's identity is the file itself. Send the
 * same file again (any key) and the server resumes an interrupted import or answers that every row
 * is already there (`created` 0, `existing` all).
 */
export class ImportsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /**
   * `POST /v1/groups/{groupId}/imports`: answers once the whole file is imported. `members` maps each
   * person column of the file (its header name) to a member id of the group.
   */
  async create(
    groupId: string,
    body: { csv: string; members: Record<string, string>; format?: 'splitwise-csv' },
    options: WriteOptions = {},
  ): Promise<ImportReport> {
    return (
      await this.http.request<ImportReport>({
        ...options,
        retry: { attemptTimeoutMs: IMPORT_ATTEMPT_TIMEOUT_MS, ...options.retry },
        method: 'POST',
        path: `/v1/groups/${encodeURIComponent(groupId)}/imports`,
        body: { format: 'splitwise-csv', ...body },
      })
    ).data;
  }

  /**
   * `GET /v1/groups/{groupId}/imports/{importId}/refusals`: one page of the import's refused rows, by
   * line (the report itself lists the first 20).
   */
  async refusals(
    groupId: string,
    importId: string,
    options: ListOptions & CallOptions = {},
  ): Promise<Page<ImportRefusal>> {
    const { limit, cursor, ...call } = options;
    return (
      await this.http.request<Page<ImportRefusal>>({
        ...call,
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(groupId)}/imports/${encodeURIComponent(importId)}/refusals`,
        query: { limit, cursor },
      })
    ).data;
  }

  /** Every refused row of the import, by line, page after page. */
  allRefusals(
    groupId: string,
    importId: string,
    options: Omit<ListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<ImportRefusal, void, undefined> {
    return paginate((cursor) => this.refusals(groupId, importId, { ...options, cursor }));
  }

  /** `GET /v1/groups/{groupId}/imports/{importId}`: the report, also while the import runs. */
  async get(groupId: string, importId: string, options: CallOptions = {}): Promise<ImportReport> {
    return (
      await this.http.request<ImportReport>({
        ...options,
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(groupId)}/imports/${encodeURIComponent(importId)}`,
      })
    ).data;
  }
}

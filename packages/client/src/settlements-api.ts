import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type { ListOptions, Page, Settlement, SettlementRequest } from './types.js';

const settlementPath = (settlementId: string) => `/v1/settlements/${encodeURIComponent(settlementId)}`;

/** Settlements: one member paying another back (API.md §5). Writes are keyed money writes. */
export class SettlementsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `POST /v1/settlements`. */
  async create(body: SettlementRequest, options: WriteOptions = {}): Promise<Settlement> {
    return (
      await this.http.request<Settlement>({ ...options, method: 'POST', path: '/v1/settlements', body })
    ).data;
  }

  /** `GET /v1/settlements/{settlementId}`. */
  async get(settlementId: string, options: CallOptions = {}): Promise<Settlement> {
    return (
      await this.http.request<Settlement>({ ...options, method: 'GET', path: settlementPath(settlementId) })
    ).data;
  }

  /** `GET /v1/groups/{groupId}/settlements`: one page, newest first. */
  async list(groupId: string, options: ListOptions & CallOptions = {}): Promise<Page<Settlement>> {
    const { limit, cursor, ...call } = options;
    return (
      await this.http.request<Page<Settlement>>({
        ...call,
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(groupId)}/settlements`,
        query: { limit, cursor },
      })
    ).data;
  }

  /** Every live settlement of a group, newest first. */
  listAll(
    groupId: string,
    options: Omit<ListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<Settlement, void, undefined> {
    return paginate((cursor) => this.list(groupId, { ...options, cursor }));
  }

  /** `DELETE /v1/settlements/{settlementId}`: undoes the settlement. */
  async delete(settlementId: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request<undefined>({ ...options, method: 'DELETE', path: settlementPath(settlementId) });
  }
}

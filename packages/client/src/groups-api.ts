import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type {
  AddMemberRequest,
  Balances,
  CreateGroupRequest,
  EventsOptions,
  Group,
  GroupEvent,
  GroupRates,
  ListOptions,
  Member,
  Page,
  PutRatesRequest,
  UpdateGroupRequest,
} from './types.js';

const groupPath = (groupId: string) => `/v1/groups/${encodeURIComponent(groupId)}`;

/** A write's options with its `ifMatch` as the `If-Match` header (412 when the group changed). */
const conditional = ({ ifMatch, ...call }: WriteOptions & { ifMatch?: string }): WriteOptions => ({
  ...call,
  headers: { ...call.headers, ...(ifMatch ? { 'If-Match': ifMatch } : {}) },
});

/** Groups, members, balances and the event log (API.md §3, §6, §8). */
export class GroupsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `POST /v1/groups`: the caller becomes the first member. Keyed, so retries never make two groups. */
  async create(body: CreateGroupRequest, options: WriteOptions = {}): Promise<Group> {
    return (await this.http.request<Group>({ ...options, method: 'POST', path: '/v1/groups', body })).data;
  }

  /**
   * `GET /v1/groups`: one page of the caller's groups, most recently joined first; `archived`: only
   * the archived ones (`true`) or only the others (`false`), all when absent.
   */
  async list(options: ListOptions & { archived?: boolean } & CallOptions = {}): Promise<Page<Group>> {
    const { limit, cursor, archived, ...call } = options;
    return (
      await this.http.request<Page<Group>>({
        ...call,
        method: 'GET',
        path: '/v1/groups',
        query: { limit, cursor, archived: archived === undefined ? undefined : String(archived) },
      })
    ).data;
  }

  /** Every group of the caller, fetching pages of `limit` as needed. */
  listAll(
    options: Omit<ListOptions, 'cursor'> & { archived?: boolean } & CallOptions = {},
  ): AsyncGenerator<Group, void, undefined> {
    return paginate((cursor) => this.list({ ...options, cursor }));
  }

  /** `GET /v1/groups/{groupId}`. */
  async get(groupId: string, options: CallOptions = {}): Promise<Group> {
    return (await this.http.request<Group>({ ...options, method: 'GET', path: groupPath(groupId) })).data;
  }

  /**
   * `GET /v1/groups/{groupId}/export.csv` (API.md §11.1): the group's expenses and settlements as
   * CSV text, whole (the server streams it; `fetch` gathers it, as a browser download would). The
   * text has no byte order mark (`Response.text()` drops it): to save a file Excel opens as UTF-8,
   * write `'\uFEFF' + csv`.
   */
  async exportCsv(groupId: string, options: CallOptions = {}): Promise<string> {
    return (
      await this.http.request<string>({
        ...options,
        method: 'GET',
        path: `${groupPath(groupId)}/export.csv`,
        responseType: 'text',
      })
    ).data;
  }

  /** `PATCH /v1/groups/{groupId}`; `ifMatch` (see `etagOf`) makes it fail with 412 if the group changed. */
  async update(
    groupId: string,
    body: UpdateGroupRequest,
    options: WriteOptions & { ifMatch?: string } = {},
  ): Promise<Group> {
    return (
      await this.http.request<Group>({
        ...conditional(options),
        method: 'PATCH',
        path: groupPath(groupId),
        body,
      })
    ).data;
  }

  /**
   * `POST /v1/groups/{groupId}/archive` (`archived: true`) or `/unarchive`: an archived group stays
   * readable but refuses every write with `GroupArchivedError` (409 `group_archived`) until unarchived.
   * A no-op when it already is. `ifMatch` as for `update`.
   */
  async setArchived(
    groupId: string,
    archived: boolean,
    options: WriteOptions & { ifMatch?: string } = {},
  ): Promise<Group> {
    const path = `${groupPath(groupId)}/${archived ? 'archive' : 'unarchive'}`;
    return (await this.http.request<Group>({ ...conditional(options), method: 'POST', path })).data;
  }

  /** `POST /v1/groups/{groupId}/members` by `userId` or `email`; answers the member (also when already one). */
  async addMember(groupId: string, body: AddMemberRequest, options: WriteOptions = {}): Promise<Member> {
    return (
      await this.http.request<Member>({
        ...options,
        method: 'POST',
        path: `${groupPath(groupId)}/members`,
        body,
      })
    ).data;
  }

  /** `DELETE /v1/groups/{groupId}/members/{userId}`; `MemberHasBalanceError` while their net is not zero. */
  async removeMember(groupId: string, userId: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: `${groupPath(groupId)}/members/${encodeURIComponent(userId)}`,
    });
  }

  /**
   * `GET /v1/groups/{groupId}/balances`. With `in` (an ISO 4217 code) the answer also carries
   * `converted`: every member's balance and the transfers in that one currency, with the rates used;
   * `RateUnavailableError` (422) names a currency no source has a rate for.
   */
  async balances(groupId: string, options: CallOptions & { in?: string } = {}): Promise<Balances> {
    const { in: currency, ...call } = options;
    return (
      await this.http.request<Balances>({
        ...call,
        method: 'GET',
        path: `${groupPath(groupId)}/balances`,
        query: { in: currency },
      })
    ).data;
  }

  /** `GET /v1/groups/{groupId}/rates`: the group's own exchange rates (`base: null` when it set none). */
  async rates(groupId: string, options: CallOptions = {}): Promise<GroupRates> {
    return (
      await this.http.request<GroupRates>({ ...options, method: 'GET', path: `${groupPath(groupId)}/rates` })
    ).data;
  }

  /**
   * `PUT /v1/groups/{groupId}/rates`: replaces the group's exchange rates (`rates[c]` units of `c`
   * per one `base`, decimal strings). Not a money write, so not queued in the outbox: sent at once
   * with its own `Idempotency-Key` and retried like `update`.
   */
  async setRates(groupId: string, body: PutRatesRequest, options: WriteOptions = {}): Promise<GroupRates> {
    return (
      await this.http.request<GroupRates>({
        ...options,
        method: 'PUT',
        path: `${groupPath(groupId)}/rates`,
        body,
      })
    ).data;
  }

  /** `GET /v1/groups/{groupId}/events`: one page of the log, oldest first. */
  async events(groupId: string, options: EventsOptions & CallOptions = {}): Promise<Page<GroupEvent>> {
    const { limit, cursor, afterSeq, ...call } = options;
    return (
      await this.http.request<Page<GroupEvent>>({
        ...call,
        method: 'GET',
        path: `${groupPath(groupId)}/events`,
        query: { limit, cursor, afterSeq },
      })
    ).data;
  }

  /** Every event of the log after `afterSeq` (default: from the start), oldest first. */
  allEvents(
    groupId: string,
    options: Omit<EventsOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<GroupEvent, void, undefined> {
    return paginate((cursor) => this.events(groupId, { ...options, cursor }));
  }
}

import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type { ActivityItem, ActivityPage, ActivityUnread, ListOptions } from './types.js';

/**
 * Activity across the caller's groups (API.md §8a): a feed of their groups' events, newest first,
 * with a read marker and the count of unread items. Live: `RealtimeClient.followActivity()`.
 */
export class ActivityApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `GET /v1/me/activity`: one page, newest first, with `unread` (at most 100, `unreadCapped` beyond). */
  async list(options: ListOptions & CallOptions = {}): Promise<ActivityPage> {
    const { limit, cursor, ...call } = options;
    return (
      await this.http.request<ActivityPage>({
        ...call,
        method: 'GET',
        path: '/v1/me/activity',
        query: { limit, cursor },
      })
    ).data;
  }

  /** Every item of the feed, newest first, page after page. */
  listAll(
    options: Omit<ListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<ActivityItem, void, undefined> {
    return paginate((cursor) => this.list({ ...options, cursor }));
  }

  /**
   * `POST /v1/me/activity/read`: everything up to the item `upTo` (an item's `id`) is read. The
   * marker only moves forward, so this is safe to repeat; not queued in the outbox (a marker lost
   * offline is simply sent again with the next read), sent at once with its own `Idempotency-Key`
   * and retried like any write.
   */
  async markRead(upTo: string, options: WriteOptions = {}): Promise<ActivityUnread> {
    return (
      await this.http.request<ActivityUnread>({
        ...options,
        method: 'POST',
        path: '/v1/me/activity/read',
        body: { upTo },
      })
    ).data;
  }
}

import type { CallOptions, HttpClient } from './http-client.js';
import type { DeviceSession } from './types.js';

/** The caller's signed-in devices (API.md §2): each sign-in is a session until signed out. */
export class SessionsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `GET /v1/me/sessions`: live sessions, the most recently used first; `current` is this one. */
  async list(options: CallOptions = {}): Promise<DeviceSession[]> {
    return (
      await this.http.request<{ data: DeviceSession[] }>({
        ...options,
        method: 'GET',
        path: '/v1/me/sessions',
      })
    ).data.data;
  }

  /**
   * `DELETE /v1/me/sessions/{sessionId}`: signs that device out (its tokens stop working, its
   * WebSockets close). Ending this client's own session this way leaves its tokens stored; use
   * `auth.logout()` for that. `NotFoundError` for a session that is not the caller's.
   */
  async revoke(sessionId: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: `/v1/me/sessions/${encodeURIComponent(sessionId)}`,
      idempotencyKey: false,
    });
  }
}

import type { TokenManager } from './auth.js';
import type { CallOptions, HttpClient } from './http-client.js';
import type { Expense, Group, Settlement, User } from './types.js';

/** `GET /v1/me/export` (API.md §11.2): the caller's account and every group they belong to. */
export type MyDataExport = {
  exportedAt: string;
  user: User;
  groups: (Group & { expenses: Expense[]; settlements: Settlement[] })[];
};

/** The signed-in account's own data (API.md §11). */
export class MeApi {
  private readonly http: HttpClient;
  private readonly tokens: TokenManager;

  constructor(http: HttpClient, tokens: TokenManager) {
    this.http = http;
    this.tokens = tokens;
  }

  /** `GET /v1/me/export`: everything the caller may read, as one document. */
  async export(options: CallOptions = {}): Promise<MyDataExport> {
    return (await this.http.request<MyDataExport>({ ...options, method: 'GET', path: '/v1/me/export' })).data;
  }

  /**
   * `POST /v1/me/password`: changes the password. Every other session of the account ends; this
   * one stays signed in. A wrong `current` fails with `WrongPasswordError` (403, so no token
   * refresh is tried); a new password the rules refuse with `ValidationFailedError`.
   */
  async changePassword(current: string, next: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'POST',
      path: '/v1/me/password',
      body: { current, new: next },
      idempotencyKey: false,
    });
  }

  /**
   * `DELETE /v1/me`: deletes the account, then forgets the session on this device. Fails with
   * `member_has_balance` (a `ProblemError`, its `errors` naming the groups) while the caller owes or
   * is owed money anywhere. Not retried with a key: the server ignores one (API.md §11.3).
   */
  async delete(options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: '/v1/me',
      idempotencyKey: false,
    });
    await this.tokens.clear();
  }
}

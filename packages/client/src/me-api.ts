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
   * `POST /v1/me/email`: asks to change the login email to `email`. A link goes to that address;
   * until it is opened (`auth.verifyEmail`) the current address stays in force. Resolves with where
   * the link went, or undefined when nothing needs confirming (`email` is the account's own,
   * verified: a change waiting to be confirmed is cancelled). `WrongPasswordError` for a wrong
   * `password`, `EmailTakenError` for an address another account has, `RateLimitedError` past 3
   * verification mails an hour. Not retried with a key (auth routes ignore keys).
   */
  async changeEmail(
    email: string,
    password: string,
    options: CallOptions = {},
  ): Promise<{ email: string } | undefined> {
    const res = await this.http.request<{ email: string } | undefined>({
      ...options,
      method: 'POST',
      path: '/v1/me/email',
      body: { email, password },
      idempotencyKey: false,
    });
    return res.status === 202 ? res.data : undefined;
  }

  /**
   * `POST /v1/me/email/verification`: mails the verification link again, for the address waiting
   * to be confirmed (a change asked for, else the login email while unverified). Resolves with where
   * it went, or undefined when nothing waits. `RateLimitedError` past 3 verification mails an hour.
   */
  async requestEmailVerification(options: CallOptions = {}): Promise<{ email: string } | undefined> {
    const res = await this.http.request<{ email: string } | undefined>({
      ...options,
      method: 'POST',
      path: '/v1/me/email/verification',
      idempotencyKey: false,
    });
    return res.status === 202 ? res.data : undefined;
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

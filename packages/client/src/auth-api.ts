import type { TokenManager } from './auth.js';
import { ProblemError } from './errors.js';
import type { CallOptions, HttpClient } from './http-client.js';
import type { LoginRequest, RegisterRequest, Session, User } from './types.js';

/** `/v1/auth/*` and `/v1/me` (API.md §2). */
export class AuthApi {
  private readonly http: HttpClient;
  private readonly tokens: TokenManager;

  constructor(http: HttpClient, tokens: TokenManager) {
    this.http = http;
    this.tokens = tokens;
  }

  /**
   * `POST /v1/auth/register`; stores the session's tokens. Not retried (it carries no
   * Idempotency-Key: the server ignores keys on auth endpoints).
   */
  async register(body: RegisterRequest, options: CallOptions = {}): Promise<Session> {
    const res = await this.http.request<Session>({
      ...options,
      method: 'POST',
      path: '/v1/auth/register',
      body,
      idempotencyKey: false,
      authenticated: false,
    });
    await this.tokens.setSession(res.data);
    return res.data;
  }

  /** `POST /v1/auth/login`; stores the session's tokens. Not retried. */
  async login(body: LoginRequest, options: CallOptions = {}): Promise<Session> {
    const res = await this.http.request<Session>({
      ...options,
      method: 'POST',
      path: '/v1/auth/login',
      body,
      idempotencyKey: false,
      authenticated: false,
    });
    await this.tokens.setSession(res.data);
    return res.data;
  }

  /**
   * Rotates the stored refresh token now (`POST /v1/auth/refresh`), sharing a refresh already in
   * flight. Resolves with the new session, or undefined when signed out or the server refused the
   * token (the tokens are then cleared). Requests refresh by themselves on 401; this is rarely needed.
   */
  refresh(): Promise<Session | undefined> {
    return this.tokens.refresh();
  }

  /**
   * `POST /v1/auth/password-reset`: asks for a mail with a link to set a new password. Resolves
   * alike whether or not an account has this email (the server does not tell). Not retried.
   */
  async requestPasswordReset(email: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<{ message: string }>({
      ...options,
      method: 'POST',
      path: '/v1/auth/password-reset',
      body: { email },
      idempotencyKey: false,
      authenticated: false,
    });
  }

  /**
   * `POST /v1/auth/password-reset/confirm`: sets a new password with the token of a reset link (the
   * part after `#reset=`). Every session of the account ends; sign in with the new password
   * afterwards. A used, expired or unknown token fails with
   * `InvalidResetTokenError`; a password the rules refuse with `ValidationFailedError`.
   */
  async confirmPasswordReset(token: string, password: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'POST',
      path: '/v1/auth/password-reset/confirm',
      body: { token, password },
      idempotencyKey: false,
      authenticated: false,
    });
  }

  /**
   * `POST /v1/auth/verify-email`: confirms an address with the token of a verification link (the
   * part after `#verify-email=`); needs no sign-in. The address becomes the login email if it was a
   * change. A used, superseded, expired or unknown token fails with `NotFoundError`; an address
   * another account registered meanwhile with `EmailTakenError`. Not retried.
   */
  async verifyEmail(token: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'POST',
      path: '/v1/auth/verify-email',
      body: { token },
      idempotencyKey: false,
      authenticated: false,
    });
  }

  /** `GET /v1/me`: the signed-in user (`emailVerified`: the login email is confirmed). */
  async me(options: CallOptions = {}): Promise<User> {
    return (await this.http.request<User>({ ...options, method: 'GET', path: '/v1/me' })).data;
  }

  /** Restores a session kept elsewhere (e.g. from the previous app start). */
  setSession(session: Session): Promise<void> {
    return this.tokens.setSession(session);
  }

  /**
   * Signs this session out (`POST /v1/auth/logout`: its refresh token dies on the server too), then
   * forgets the tokens on this device. The tokens are forgotten whatever the answer; a session the
   * server had already ended (401) is no error, any other failure (network, 5xx) rejects after the
   * tokens are gone, so the app knows the server may still hold the session.
   */
  async logout(options: CallOptions = {}): Promise<void> {
    await this.signOut('/v1/auth/logout', options);
  }

  /** Signs out every session of the user, this one included (`POST /v1/auth/logout-all`), as `logout`. */
  async logoutAll(options: CallOptions = {}): Promise<void> {
    await this.signOut('/v1/auth/logout-all', options);
  }

  private async signOut(path: string, options: CallOptions): Promise<void> {
    try {
      if ((await this.tokens.tokens()) === undefined) return;
      await this.http.request<undefined>({ ...options, method: 'POST', path, idempotencyKey: false });
    } catch (error) {
      if (!(error instanceof ProblemError && error.status === 401)) throw error;
    } finally {
      await this.tokens.clear();
    }
  }

  /** Whether tokens are stored. */
  async isSignedIn(): Promise<boolean> {
    return (await this.tokens.tokens()) !== undefined;
  }
}

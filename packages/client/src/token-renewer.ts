import type { RealtimeError, RealtimeOptions } from './realtime-types.js';
import type { ClientMessage, ServerMessage } from './types.js';

/** A fresh token is sent this long before the current one expires, or a quarter of its remaining life if less. */
const RENEW_LEAD_MS = 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A JWT's `exp` in epoch milliseconds, read without verifying it (the server does); undefined if unreadable. */
function expiryOf(token: string | undefined): number | undefined {
  const payload = token?.split('.')[1];
  if (!payload || typeof atob !== 'function') return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const exp = (JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as { exp?: unknown })
      .exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export type TokenRenewerDeps = {
  getAccessToken: RealtimeOptions['getAccessToken'];
  now: () => number;
  send: (message: ClientMessage) => void;
  nextId: () => string;
  reportError: (error: RealtimeError) => void;
};

/**
 * The access token of the realtime connection: the one a new connection presents (telling the
 * provider which token was found no good, so it refreshes), and a fresh one sent with `auth` shortly
 * before the open connection's token expires, so the server never has to close it with 4401.
 */
export class TokenRenewer {
  /** Times the open connection was given a fresh token. */
  reauthenticated = 0;
  /** The token the current connection presented (or was last given with `auth`). */
  private used: string | undefined;
  /** A token found no good: passed as `rejectedToken` when the next connection asks for one. */
  private rejected: string | undefined;
  /** When the token of the open connection expires (epoch ms), if known. */
  private expiresAt: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The `auth` in flight: its request id and the token it carries. */
  private pending: { id: string; token: string } | undefined;
  /** Bumped by `stop()`: a renewal that was waiting for the provider then belongs to a gone connection. */
  private epoch = 0;

  private readonly deps: TokenRenewerDeps;

  constructor(deps: TokenRenewerDeps) {
    this.deps = deps;
  }

  /** The token for a new connection (it may throw, like the provider). */
  async forConnection(): Promise<string | undefined> {
    const rejectedToken = this.rejected;
    return this.deps.getAccessToken(rejectedToken === undefined ? {} : { rejectedToken });
  }

  /** A socket was opened with `token`. */
  presented(token: string | undefined): void {
    this.used = token;
  }

  /** The server closed with 4401 at the token's expiry: the next connection refreshes. */
  expired(): void {
    this.rejected ??= this.used;
  }

  /** The upgrade was refused with 401: the token is no good. */
  refused(): void {
    this.rejected = this.used;
  }

  /** The connection was welcomed: its token works; renew it before it expires. */
  welcomed(): void {
    this.rejected = undefined;
    this.expiresAt = expiryOf(this.used);
    this.schedule();
  }

  /** The connection is gone: no renewal for it any more. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    this.epoch++;
  }

  onAuthenticated(message: Extract<ServerMessage, { type: 'authenticated' }>): void {
    const pending = this.pending;
    if (!pending || message.id !== pending.id) return;
    this.pending = undefined;
    this.used = pending.token;
    const expiresAt = Date.parse(message.expiresAt);
    this.expiresAt = Number.isNaN(expiresAt) ? expiryOf(pending.token) : expiresAt;
    this.reauthenticated++;
    this.schedule();
  }

  /**
   * An `error` from the server: when it answers the `auth` in flight, the fresh token was refused; the
   * connection then ends at the old token's expiry (4401), and the reconnect refreshes.
   * @returns whether it was the answer to the `auth`
   */
  onError(message: Extract<ServerMessage, { type: 'error' }>): boolean {
    const pending = this.pending;
    if (!pending || message.id !== pending.id) return false;
    this.pending = undefined;
    this.rejected = pending.token;
    this.deps.reportError({ code: message.code, message: 'the server refused the fresh access token' });
    return true;
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.expiresAt === undefined) return;
    const left = this.expiresAt - this.deps.now();
    const delay = Math.max(0, left - Math.min(RENEW_LEAD_MS, left / 4));
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (this.expiresAt !== undefined && this.expiresAt - this.deps.now() > RENEW_LEAD_MS) {
          this.schedule(); // a very long lifetime outlasts one timer
          return;
        }
        void this.renew();
      },
      Math.min(delay, MAX_TIMER_MS),
    );
  }

  private async renew(): Promise<void> {
    const epoch = this.epoch;
    const current = this.used;
    let token: string | undefined;
    try {
      token = await this.deps.getAccessToken({});
      // The provider handed out the token about to expire: ask it to refresh.
      if (current !== undefined && token === current)
        token = await this.deps.getAccessToken({ rejectedToken: current });
    } catch (cause) {
      if (epoch === this.epoch)
        this.deps.reportError({
          code: 'token_unavailable',
          message: 'could not get a fresh access token',
          cause,
        });
      return; // the server closes with 4401 at expiry, and the reconnect asks again
    }
    if (epoch !== this.epoch || !token || token === current) return;
    const id = this.deps.nextId();
    this.pending = { id, token };
    this.deps.send({ type: 'auth', id, accessToken: token });
  }
}

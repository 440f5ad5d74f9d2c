import { ProblemError } from './errors.js';
import type { Session } from './types.js';

/** What the client keeps of a session. */
export type StoredTokens = {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (epoch milliseconds), when known. */
  expiresAt?: number;
};

/**
 * Where the client keeps its tokens. Back it with secure storage on a device (Keychain, Keystore,
 * `expo-secure-store`); the default keeps them in memory. May be synchronous or asynchronous.
 */
export type TokenStore = {
  get(): StoredTokens | undefined | Promise<StoredTokens | undefined>;
  /** `undefined` clears the tokens (sign-out, or a refresh the server refused). */
  set(tokens: StoredTokens | undefined): void | Promise<void>;
};

/** A token store in memory: tokens live as long as the process. */
export class MemoryTokenStore implements TokenStore {
  private tokens: StoredTokens | undefined;
  constructor(initial?: StoredTokens) {
    this.tokens = initial;
  }
  get(): StoredTokens | undefined {
    return this.tokens;
  }
  set(tokens: StoredTokens | undefined): void {
    this.tokens = tokens;
  }
}

export type TokenManagerOptions = {
  store: TokenStore;
  /** Exchanges a refresh token for a new session (`POST /v1/auth/refresh`, never retried). */
  refresh: (refreshToken: string) => Promise<Session>;
  /** Called once when the server refuses the refresh token: the user must sign in again. */
  onSessionExpired?: () => void;
  /** Called with every new session (register, login, refresh). */
  onSession?: (session: Session) => void;
  /**
   * The clock, for `expiresAt`.
   * @default Date.now
   */
  now?: () => number;
};

/**
 * Holds the session and refreshes it. At most one refresh runs at a time: every request that got a
 * 401 while it runs waits for the same refresh ("single flight") and is then retried with the new
 * access token. Refresh tokens rotate: a token presented again past the server's grace window
 * revokes the session (within it, the server answers the same successor again).
 */
export class TokenManager {
  private readonly store: TokenStore;
  private readonly options: TokenManagerOptions;
  private readonly now: () => number;
  private inflight: Promise<StoredTokens | undefined> | undefined;
  private lastSession: Session | undefined;

  constructor(options: TokenManagerOptions) {
    this.options = options;
    this.store = options.store;
    this.now = options.now ?? Date.now;
  }

  /** The stored tokens, if signed in. */
  async tokens(): Promise<StoredTokens | undefined> {
    return this.store.get();
  }

  /** The current access token (possibly expired), if signed in. */
  async accessToken(): Promise<string | undefined> {
    return (await this.store.get())?.accessToken;
  }

  /**
   * An access token that is not known to have expired: refreshes first when `expiresAt` is within
   * `skewMs`. For the WebSocket upgrade, which cannot be retried after a 401 the way a request can.
   */
  async freshAccessToken(skewMs = 30_000): Promise<string | undefined> {
    const tokens = await this.store.get();
    if (!tokens) return undefined;
    if (tokens.expiresAt === undefined || tokens.expiresAt - skewMs > this.now()) return tokens.accessToken;
    return this.refreshAfter(tokens.accessToken);
  }

  /** Stores a new session (after register, login or refresh). */
  async setSession(session: Session): Promise<void> {
    await this.store.set({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      expiresAt: this.now() + session.expiresIn * 1000,
    });
    this.options.onSession?.(session);
  }

  /** Forgets the tokens (sign out on this device). */
  async clear(): Promise<void> {
    await this.store.set(undefined);
  }

  /**
   * Refreshes the session now (single flight: joins a refresh already running). Resolves with the
   * new session, or undefined when there is no refresh token or the server refused it (the tokens
   * are then cleared and `onSessionExpired` called). Other failures (network, 5xx) reject and leave
   * the tokens as they were.
   */
  async refresh(): Promise<Session | undefined> {
    const tokens = await this.shared(undefined);
    return tokens ? this.lastSession : undefined;
  }

  /**
   * After a request was refused with 401 while carrying `rejectedToken`: the access token to retry
   * with, or undefined when the session is over. Every request that gets a 401 while a refresh runs
   * waits for that one; when another request already refreshed (the stored token differs from the
   * rejected one), no second refresh is made.
   */
  async refreshAfter(rejectedToken: string | undefined): Promise<string | undefined> {
    return (await this.shared(rejectedToken))?.accessToken;
  }

  private shared(rejectedToken: string | undefined): Promise<StoredTokens | undefined> {
    this.inflight ??= this.runRefresh(rejectedToken).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async runRefresh(rejectedToken: string | undefined): Promise<StoredTokens | undefined> {
    const tokens = await this.store.get();
    if (!tokens?.refreshToken) return undefined;
    // Someone refreshed since this request was sent: retry with their token, do not rotate again.
    if (rejectedToken !== undefined && tokens.accessToken !== rejectedToken) return tokens;
    let session: Session;
    try {
      session = await this.options.refresh(tokens.refreshToken);
    } catch (error) {
      if (error instanceof ProblemError && error.status === 401) {
        await this.store.set(undefined);
        this.options.onSessionExpired?.();
        return undefined;
      }
      throw error;
    }
    await this.setSession(session);
    this.lastSession = session;
    return this.store.get();
  }
}

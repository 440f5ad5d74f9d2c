import { ActivityApi } from './activity-api.js';
import { ApiKeysApi, ApiKeyTokenStore } from './api-keys-api.js';
import { MemoryTokenStore, TokenManager, type TokenStore } from './auth.js';
import { AuthApi } from './auth-api.js';
import { CategoriesApi } from './categories-api.js';
import { CommentsApi } from './comments-api.js';
import { ExpensesApi } from './expenses-api.js';
import { GroupsApi } from './groups-api.js';
import { HistoryApi } from './history-api.js';
import { defaultSleep, HttpClient, type HttpClientOptions } from './http-client.js';
import { randomIdempotencyKey } from './idempotency-key.js';
import { ImportsApi } from './imports-api.js';
import { InvitesApi } from './invites-api.js';
import { MeApi } from './me-api.js';
import { NotificationsApi, PushApi } from './notifications-api.js';
import { Outbox, type OutboxOptions } from './outbox.js';
import { RealtimeClient } from './realtime.js';
import type { RealtimeOptions } from './realtime-types.js';
import { ReceiptsApi } from './receipts-api.js';
import { RecurringApi } from './recurring-api.js';
import { SessionsApi } from './sessions-api.js';
import { SettlementsApi } from './settlements-api.js';
import type { Session } from './types.js';
import { WebhooksApi } from './webhooks-api.js';

export type TallyClientOptions = Omit<HttpClientOptions, 'tokens'> & {
  /**
   * Where tokens are kept between requests (and app starts, if it persists them).
   * @default a new MemoryTokenStore
   */
  tokenStore?: TokenStore;
  /**
   * An API key (`tally_sk_…`, API.md §2.6) instead of signing in: every request carries it, within
   * its scopes; `tokenStore` is not used. For scripts and integrations; the WebSocket does not take keys.
   */
  apiKey?: string;
  /** Called when the server refuses the refresh token: the user must sign in again. */
  onSessionExpired?: () => void;
  /** Called with every new session (register, login, refresh). */
  onSession?: (session: Session) => void;
  /**
   * The durable outbox of money writes (`tally.outbox`): where it stores them and how it reports.
   * @default an outbox in memory
   */
  outbox?: OutboxOptions;
};

/**
 * The Tally API client: typed methods for every endpoint of API.md, retries that never duplicate a
 * money write, one shared token refresh on 401, and a realtime client for the WebSocket.
 *
 *   const tally = new TallyClient({ baseUrl: 'https://api.example.com' });
 *   await tally.auth.login({ email, password });
 *   const group = await tally.groups.create({ name: 'Goa trip' });
 *   await tally.expenses.create({ groupId: group.id, description: 'Dinner', amount: 120000,
 *     paidBy: me.id, split: { type: 'equal', between: [me.id, friend.id] } });
 */
export class TallyClient {
  readonly http: HttpClient;
  readonly tokens: TokenManager;
  readonly auth: AuthApi;
  readonly groups: GroupsApi;
  /** Invite links and claims of pending members. */
  readonly invites: InvitesApi;
  /** The caller's own data: export it, delete the account (API.md §11). */
  readonly me: MeApi;
  readonly expenses: ExpensesApi;
  readonly settlements: SettlementsApi;
  /** Recurring expenses (API.md §6a): schedules the server turns into expenses. */
  readonly recurring: RecurringApi;
  /** Activity across the caller's groups (API.md §8a): the feed, its read marker and unread count. */
  readonly activity: ActivityApi;
  /** Comments on expenses and settlements (API.md §5.2). */
  readonly comments: CommentsApi;
  /** Categories and statistics (API.md §14). */
  readonly categories: CategoriesApi;
  /** Imports of Splitwise exports (API.md §6b). */
  readonly imports: ImportsApi;
  /** The caller's signed-in devices: list them, sign one out (API.md §2). */
  readonly sessions: SessionsApi;
  /** The caller's API keys for scripts: create, list, revoke (API.md §2.6). */
  readonly apiKeys: ApiKeysApi;
  /** A group's webhook endpoints and their delivery logs (API.md §12); `verifyWebhook` checks a delivery. */
  readonly webhooks: WebhooksApi;
  /** Receipts on file (API.md §16): upload, read with signed links, remove. */
  readonly receipts: ReceiptsApi;
  /** Notification settings, reminders to settle up, unsubscribing (API.md §13). */
  readonly notifications: NotificationsApi;
  /** Web Push: the VAPID key and the caller's registered browsers (API.md §13.2). */
  readonly push: PushApi;
  /** Every version of an expense or a settlement, with who changed what (API.md §15). */
  readonly history: HistoryApi;
  /**
   * Money writes that survive the app being killed: stored first, sent after, until a final answer
   * (see `Outbox`). Started with the client; a new session (login, refresh) wakes it.
   */
  readonly outbox: Outbox;
  private readonly now: (() => number) | undefined;

  constructor(options: TallyClientOptions) {
    const { tokenStore, apiKey, onSessionExpired, onSession, outbox, ...httpOptions } = options;
    this.now = httpOptions.now;
    let http: HttpClient | undefined;
    this.tokens = new TokenManager({
      store: apiKey !== undefined ? new ApiKeyTokenStore(apiKey) : (tokenStore ?? new MemoryTokenStore()),
      ...(httpOptions.now ? { now: httpOptions.now } : {}),
      ...(onSessionExpired ? { onSessionExpired } : {}),
      onSession: (session) => {
        onSession?.(session);
        this.outbox.wake();
      },
      refresh: async (refreshToken) => {
        // Never retried: a refresh token works once, and a lost answer cannot be replayed.
        const res = await http!.request<Session>({
          method: 'POST',
          path: '/v1/auth/refresh',
          body: { refreshToken },
          idempotencyKey: false,
          authenticated: false,
        });
        return res.data;
      },
    });
    http = new HttpClient({ ...httpOptions, tokens: this.tokens });
    this.http = http;
    this.auth = new AuthApi(http, this.tokens);
    this.groups = new GroupsApi(http);
    this.invites = new InvitesApi(http);
    this.me = new MeApi(http, this.tokens);
    this.expenses = new ExpensesApi(http);
    this.settlements = new SettlementsApi(http);
    this.recurring = new RecurringApi(http);
    this.activity = new ActivityApi(http);
    this.comments = new CommentsApi(http);
    this.categories = new CategoriesApi(http);
    this.imports = new ImportsApi(http);
    this.sessions = new SessionsApi(http);
    this.apiKeys = new ApiKeysApi(http);
    this.webhooks = new WebhooksApi(http);
    this.notifications = new NotificationsApi(http);
    this.history = new HistoryApi(http);
    this.receipts = new ReceiptsApi(http);
    this.push = new PushApi(http);
    this.outbox = new Outbox(
      {
        http,
        ...(httpOptions.now ? { now: httpOptions.now } : {}),
        ...(httpOptions.random ? { random: httpOptions.random } : {}),
        sleep: httpOptions.sleep ?? defaultSleep,
        newKey: httpOptions.generateIdempotencyKey ?? randomIdempotencyKey,
      },
      outbox,
    );
    if (outbox?.autoStart !== false) this.outbox.start().catch(() => {}); // failures surface through `ready`
  }

  /**
   * A realtime client on this server, authenticated with this client's tokens (refreshed first when
   * known to be expired, and after an upgrade refused with 401). Call `connect()` or `subscribe()`.
   */
  realtime(options: Omit<RealtimeOptions, 'url' | 'getAccessToken'> & { url?: string } = {}): RealtimeClient {
    const client = new RealtimeClient({
      url: this.http.baseUrl,
      ...(this.now ? { now: this.now } : {}),
      ...options,
      getAccessToken: ({ rejectedToken }) =>
        rejectedToken !== undefined
          ? this.tokens.refreshAfter(rejectedToken)
          : this.tokens.freshAccessToken(),
    });
    // What the events show is seen: later reads never go behind it (X-Min-Seq).
    const seen = this.http.seenStates;
    client.on('event', (event) => seen.note(event.groupId, event.seq));
    client.on('activity', (item) => seen.note(item.groupId, item.seq));
    return client;
  }
}

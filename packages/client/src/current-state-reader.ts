import canonicalize from 'canonicalize';
import { NotFoundError, RetryExhaustedError } from './errors.js';
import type { HttpClient, HttpResponse } from './http-client.js';
import type { OutboxEntry } from './outbox-types.js';
import type { StaleReads } from './resolve-stale-entry.js';
import type { RetryPolicy } from './retry-policy.js';
import type {
  Page,
  RecurringExpense,
  RecurringExpenseRequest,
  Settlement,
  SettlementRequest,
  User,
} from './types.js';

/**
 * The server's current state, as the resolution of stale entries reads it. One per outbox: it remembers
 * who the user is, and which settlements a resolution already took as its own, so that two stale creates
 * of equal settlements are not both settled by the one that exists.
 */
export class CurrentStateReader implements StaleReads {
  private readonly claimed = new Set<string>();
  private me: Promise<string> | undefined;

  private readonly http: HttpClient;
  private readonly policy: RetryPolicy;
  /** How far before the entry's creation a matching settlement may be (the clocks may differ). */
  private readonly clockSkewMs: number;

  constructor(http: HttpClient, policy: RetryPolicy, clockSkewMs: number) {
    this.http = http;
    this.policy = policy;
    this.clockSkewMs = clockSkewMs;
  }

  async read<T>(path: string): Promise<HttpResponse<T> | undefined> {
    try {
      return await this.http.request<T>({ method: 'GET', path, retry: this.policy });
    } catch (error) {
      const cause = error instanceof RetryExhaustedError ? error.lastError : error;
      if (cause instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  async claimSettlement(entry: OutboxEntry, body: SettlementRequest): Promise<Settlement | undefined> {
    const me = await this.whoAmI();
    const since = Date.parse(entry.createdAt) - this.clockSkewMs;
    let cursor: string | undefined;
    do {
      const page = await this.http.request<Page<Settlement>>({
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(entry.groupId)}/settlements`,
        query: { limit: 100, cursor },
        retry: this.policy,
      });
      for (const s of page.data.data) {
        if (Date.parse(s.createdAt) < since) return undefined; // newest first: nothing older can match
        if (
          s.createdBy === me &&
          s.fromUserId === body.fromUserId &&
          s.toUserId === body.toUserId &&
          s.amount === body.amount &&
          (body.currency === undefined || s.currency === body.currency) &&
          s.note === (body.note ?? '') &&
          !this.claimed.has(s.id)
        ) {
          this.claimed.add(s.id);
          return s;
        }
      }
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return undefined;
  }

  /**
   * A recurring expense of the entry's group this user made since the entry, with exactly `body`'s
   * template and schedule, not yet claimed: the stale create's own, applied before.
   */
  async claimRecurring(
    entry: OutboxEntry,
    body: RecurringExpenseRequest,
  ): Promise<RecurringExpense | undefined> {
    const me = await this.whoAmI();
    const since = Date.parse(entry.createdAt) - this.clockSkewMs;
    const wanted = canonicalize({ expense: body.expense, schedule: { until: null, ...body.schedule } });
    let cursor: string | undefined;
    do {
      const page = await this.http.request<Page<RecurringExpense>>({
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(entry.groupId)}/recurring`,
        query: { limit: 100, cursor },
        retry: this.policy,
      });
      for (const r of page.data.data) {
        if (Date.parse(r.createdAt) < since) return undefined; // newest first: nothing older can match
        if (
          r.createdBy === me &&
          canonicalize({ expense: r.expense, schedule: r.schedule }) === wanted &&
          !this.claimed.has(r.id)
        ) {
          this.claimed.add(r.id);
          return r;
        }
      }
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return undefined;
  }

  private whoAmI(): Promise<string> {
    this.me ??= this.http.request<User>({ method: 'GET', path: '/v1/me', retry: this.policy }).then(
      (res) => res.data.id,
      (error: unknown) => {
        this.me = undefined; // a failed look-up is asked again next time
        throw error;
      },
    );
    return this.me;
  }
}

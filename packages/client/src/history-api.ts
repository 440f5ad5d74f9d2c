import type { CallOptions, HttpClient } from './http-client.js';
import { paginate } from './pages.js';
import type { Comment, ExpenseVersion, HistoryListOptions, HistoryPage, SettlementVersion } from './types.js';

/** Whose history: an expense or a settlement (the same shape as a comment's target). */
export type HistoryTarget = { expenseId: string } | { settlementId: string };

type VersionOf<T extends HistoryTarget> = T extends { expenseId: string }
  ? ExpenseVersion
  : SettlementVersion;

const historyPath = (target: HistoryTarget) =>
  'expenseId' in target
    ? `/v1/expenses/${encodeURIComponent(target.expenseId)}/history`
    : `/v1/settlements/${encodeURIComponent(target.settlementId)}/history`;

/** One entry of a record's timeline: a version (a change) or a comment, oldest first. */
export type TimelineEntry<V> =
  | { kind: 'change'; at: string; version: V }
  | { kind: 'comment'; at: string; comment: Comment };

/**
 * Versions and comments of one record in one list by time (a version's `occurredAt`, a comment's
 * `createdAt`; a change before a comment at the same instant), as Splitwise shows changes among the
 * comments. The API keeps them in two lists (API.md §15); this is the merge clients do.
 */
export function mergeTimeline<V extends { occurredAt: string }>(
  versions: readonly V[],
  comments: readonly Comment[],
): TimelineEntry<V>[] {
  const entries: TimelineEntry<V>[] = [
    ...versions.map((version) => ({ kind: 'change' as const, at: version.occurredAt, version })),
    ...comments.map((comment) => ({ kind: 'comment' as const, at: comment.createdAt, comment })),
  ];
  // A stable sort: each list keeps its own order among equal times.
  return entries.sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : a.kind === b.kind ? 0 : a.kind === 'change' ? -1 : 1,
  );
}

/** Every version of an expense or a settlement, with who changed what (API.md §15). */
export class HistoryApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `GET …/history`: one page, oldest first; `limit` 1–50. */
  async list<T extends HistoryTarget>(
    target: T,
    options: HistoryListOptions & CallOptions = {},
  ): Promise<HistoryPage<VersionOf<T>>> {
    const { limit, cursor, ...call } = options;
    return (
      await this.http.request<HistoryPage<VersionOf<T>>>({
        ...call,
        method: 'GET',
        path: historyPath(target),
        query: { limit, cursor },
      })
    ).data;
  }

  /** Every kept version, oldest first (a `truncated` history starts after the ones retention took). */
  listAll<T extends HistoryTarget>(
    target: T,
    options: Omit<HistoryListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<VersionOf<T>, void, undefined> {
    return paginate((cursor) => this.list(target, { ...options, cursor }));
  }
}

import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import { paginate } from './pages.js';
import type { Comment, ListOptions, Page } from './types.js';

/** What a comment is on: an expense or a settlement. */
export type CommentTarget = { expenseId: string } | { settlementId: string };

const targetPath = (target: CommentTarget) =>
  'expenseId' in target
    ? `/v1/expenses/${encodeURIComponent(target.expenseId)}/comments`
    : `/v1/settlements/${encodeURIComponent(target.settlementId)}/comments`;

/**
 * Comments on expenses and settlements (API.md §5.2). Writes carry an `Idempotency-Key` (one per
 * call, reused by its retries): a comment retried after a lost response is created once.
 */
export class CommentsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `POST …/comments` `{text}`: 1–2000 characters (code points), stored exactly as given. */
  async create(target: CommentTarget, text: string, options: WriteOptions = {}): Promise<Comment> {
    return (
      await this.http.request<Comment>({
        ...options,
        method: 'POST',
        path: targetPath(target),
        body: { text },
      })
    ).data;
  }

  /** `GET …/comments`: one page, oldest first. */
  async list(target: CommentTarget, options: ListOptions & CallOptions = {}): Promise<Page<Comment>> {
    const { limit, cursor, ...call } = options;
    return (
      await this.http.request<Page<Comment>>({
        ...call,
        method: 'GET',
        path: targetPath(target),
        query: { limit, cursor },
      })
    ).data;
  }

  /** Every comment on the target, oldest first. */
  listAll(
    target: CommentTarget,
    options: Omit<ListOptions, 'cursor'> & CallOptions = {},
  ): AsyncGenerator<Comment, void, undefined> {
    return paginate((cursor) => this.list(target, { ...options, cursor }));
  }

  /** `DELETE /v1/comments/{commentId}`: by its author only (`ForbiddenError` for anyone else). */
  async delete(commentId: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: `/v1/comments/${encodeURIComponent(commentId)}`,
    });
  }
}

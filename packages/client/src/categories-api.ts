import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import type {
  Category,
  CategoryMerged,
  CategoryPatch,
  CategoryRequest,
  GroupStats,
  GroupStatsOptions,
  MyStats,
  MyStatsOptions,
} from './types.js';

const categoriesPath = (groupId: string) => `/v1/groups/${encodeURIComponent(groupId)}/categories`;
const categoryPath = (groupId: string, categoryId: string) =>
  `${categoriesPath(groupId)}/${encodeURIComponent(categoryId)}`;

/**
 * Categories and statistics (API.md §14): the default list and a group's own categories (writes
 * carry an `Idempotency-Key`, one per call, reused by its retries), and what a group, or the
 * caller across their groups, spent.
 */
export class CategoriesApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `GET /v1/groups/{groupId}/categories`: the defaults, then the group's own (not paginated). */
  async list(groupId: string, options: CallOptions = {}): Promise<Category[]> {
    return (
      await this.http.request<{ data: Category[] }>({
        ...options,
        method: 'GET',
        path: categoriesPath(groupId),
      })
    ).data.data;
  }

  /** `POST …/categories` `{name, icon?, color?}` (`CategoryNameTakenError`-style `409 category_name_taken`). */
  async create(groupId: string, body: CategoryRequest, options: WriteOptions = {}): Promise<Category> {
    return (
      await this.http.request<Category>({ ...options, method: 'POST', path: categoriesPath(groupId), body })
    ).data;
  }

  /** `PATCH …/categories/{categoryId}`: rename, re-icon, recolour (the group's own only). */
  async update(
    groupId: string,
    categoryId: string,
    body: CategoryPatch,
    options: WriteOptions = {},
  ): Promise<Category> {
    return (
      await this.http.request<Category>({
        ...options,
        method: 'PATCH',
        path: categoryPath(groupId, categoryId),
        body,
      })
    ).data;
  }

  /** `DELETE …/categories/{categoryId}`: its expenses lose their category. */
  async delete(groupId: string, categoryId: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: categoryPath(groupId, categoryId),
    });
  }

  /** `POST …/categories/{categoryId}/merge` `{into}`: its expenses move to `into`, it is deleted. */
  async merge(
    groupId: string,
    categoryId: string,
    into: string,
    options: WriteOptions = {},
  ): Promise<CategoryMerged> {
    return (
      await this.http.request<CategoryMerged>({
        ...options,
        method: 'POST',
        path: `${categoryPath(groupId, categoryId)}/merge`,
        body: { into },
      })
    ).data;
  }

  /** `GET /v1/groups/{groupId}/stats`: totals and shares per currency, `by` category, member or month. */
  async groupStats(groupId: string, options: GroupStatsOptions & CallOptions = {}): Promise<GroupStats> {
    const { from, to, by, currency, ...call } = options;
    return (
      await this.http.request<GroupStats>({
        ...call,
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(groupId)}/stats`,
        query: { from, to, by, currency },
      })
    ).data;
  }

  /** `GET /v1/me/stats`: my share across my groups, `by` category, group or month. */
  async myStats(options: MyStatsOptions & CallOptions = {}): Promise<MyStats> {
    const { from, to, by, currency, ...call } = options;
    return (
      await this.http.request<MyStats>({
        ...call,
        method: 'GET',
        path: '/v1/me/stats',
        query: { from, to, by, currency },
      })
    ).data;
  }
}

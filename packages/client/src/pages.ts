import type { Page } from './types.js';

/**
 * Every item of a cursor-paginated list, page after page: `fetchPage` is called with the cursor of
 * the previous page (undefined first) until `nextCursor` is null.
 *
 *   for await (const expense of paginate((cursor) => client.expenses.list(groupId, { cursor }))) …
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

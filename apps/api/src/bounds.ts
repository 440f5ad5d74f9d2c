import { limitExceeded } from '@tally/http-kit';

/**
 * The count bounds of API.md §9.1 that the API checks against stored state: a request that would
 * go over one is refused whole with `422 limit_exceeded` naming it, and writes nothing. Each value
 * is far above what a group of friends reaches, and low enough to bound what one request costs:
 *
 * - `membersPerGroup` and `currenciesPerGroup`: a money event carries the balances of every member
 *   in every currency with live records, and every write reads the group's snapshot of them, so
 *   their product is the size of each money write (100 × 20: about 0.3 MB at most; with 200
 *   members and the 162 currencies ISO 4217 has, 4.5 MB an event and 1.6 s a write before).
 * - `groupsPerUser`: the activity feed, `GET /v1/me/export` and `DELETE /v1/me` cost one unit per
 *   group the account is in.
 * - `invitesPerGroup` (live ones): the invite list shows them all.
 * - `commentsPerTarget` (live ones, on one expense or settlement).
 * - `categoriesPerGroup` (live ones, the defaults not counted): the category list shows them all,
 *   and every event of a category write is one row.
 */
export const BOUNDS = {
  /** Groups one account is a member of (creating, being added, joining, claiming). */
  groupsPerUser: 500,
  /** Current members of one group, pending members included (claimed ones are their account). */
  membersPerGroup: 100,
  /** Currencies with live expenses or settlements in one group. */
  currenciesPerGroup: 20,
  /** Live (neither revoked nor expired) invites of one group. */
  invitesPerGroup: 100,
  /** Live (not deleted) comments on one expense or settlement. */
  commentsPerTarget: 500,
  /** Live (not deleted) categories of one group's own, the default list not counted (API.md §14). */
  categoriesPerGroup: 50,
} as const;

export type BoundName = keyof typeof BOUNDS;

/** `422 limit_exceeded` for `name` unless `count` (what there is now) leaves room for `adding` more. */
export function assertRoom(name: BoundName, count: number, detail: string, adding = 1): void {
  const max = BOUNDS[name];
  if (count + adding > max) throw limitExceeded(name, max, `${detail} (at most ${max}: \`${name}\`).`);
}

/**
 * Downloads (`export.csv`, `/me/export`) one user may have running at once in one API process
 * (`exportsPerUser`): a number of requests at once, so `429 rate_limited`, not a stored count.
 */
export const EXPORTS_PER_USER = 2;

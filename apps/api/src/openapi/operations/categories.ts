import { BOUNDS } from '../../bounds';
import {
  createCategoryBody,
  emptyQuery,
  groupStatsQuery,
  mergeCategoryBody,
  myStatsQuery,
  patchCategoryBody,
} from '../../schemas';
import { noContent } from './shapes';
import type { Operation } from './types';

const CATEGORIES = '/v1/groups/{groupId}/categories';
const ONE = `${CATEGORIES}/{categoryId}`;
const OWN_ONLY =
  'Only the group’s own categories (`cat_…`) can be changed: a default id (or a deleted or unknown one) is `404`.';
const STATS_NOTE =
  'Counts the live expenses with `from ≤ occurredAt < to` (UTC months), in one aggregate statement: the whole ' +
  'months from stored totals, the partial months at the edges from the expenses there (API.md §14.2, cost). Settlements are not spending and are not counted. Negative amounts sum as they are. With ' +
  '`?currency=`, `converted` gives the totals in that currency where every currency has a rate (else `converted` ' +
  'is null and `unconverted` names the currencies without one).';

/** Categories and statistics (API.md §14). */
export const categoriesOperations: Operation[] = [
  {
    method: 'get',
    path: CATEGORIES,
    operationId: 'listCategories',
    replicaRead: true,
    tag: 'Categories',
    summary: 'The categories a group’s expenses can be in',
    description: `The fixed default list (10, stable ids such as \`food\`), then the group’s own, oldest first (at most ${BOUNDS.categoriesPerGroup}). Not paginated.`,
    query: emptyQuery,
    success: [{ status: 200, description: 'The categories', schema: 'CategoryList' }],
  },
  {
    method: 'post',
    path: CATEGORIES,
    operationId: 'createCategory',
    tag: 'Categories',
    summary: 'Add a category of the group’s own',
    description:
      'Appends `category.created`. A name already taken (ignoring case) by a default or a live category of the ' +
      `group is \`409 category_name_taken\`. At most ${BOUNDS.categoriesPerGroup} live ones (\`categoriesPerGroup\`): ` +
      'one more is `422 limit_exceeded`.',
    body: createCategoryBody,
    idempotency: 'optional',
    success: [{ status: 201, description: 'The category', schema: 'Category', headers: ['Location'] }],
    errors: ['category_name_taken', 'limit_exceeded'],
  },
  {
    method: 'patch',
    path: ONE,
    operationId: 'patchCategory',
    tag: 'Categories',
    summary: 'Rename a category, or change its icon or colour',
    description:
      'Expenses refer to a category by id, so the new name shows on every one of them at once. Appends ' +
      `\`category.updated\` (nothing when nothing changes). ${OWN_ONLY}`,
    body: patchCategoryBody,
    idempotency: 'optional',
    success: [{ status: 200, description: 'The category', schema: 'Category' }],
    errors: ['category_name_taken'],
  },
  {
    method: 'delete',
    path: ONE,
    operationId: 'deleteCategory',
    tag: 'Categories',
    summary: 'Delete a category of the group’s own',
    description:
      'Its live expenses lose their category (`categoryId` null, each one’s `version` bumped) in the same ' +
      `statement, which appends \`category.deleted\`. ${OWN_ONLY}`,
    idempotency: 'optional',
    success: noContent('Deleted'),
  },
  {
    method: 'post',
    path: `${ONE}/merge`,
    operationId: 'mergeCategory',
    tag: 'Categories',
    summary: 'Merge a category into another',
    description:
      'Every live expense of the category moves to `into` (a default or another of the group’s own; each one’s ' +
      '`version` bumped) and the category is deleted, in ONE statement that appends `category.merged`. An `into` ' +
      `that is not a category of the group is \`422 unknown_category\`. ${OWN_ONLY}`,
    body: mergeCategoryBody,
    idempotency: 'optional',
    success: [
      { status: 200, description: 'The target and how many expenses moved', schema: 'CategoryMerged' },
    ],
    errors: ['unknown_category'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/stats',
    operationId: 'getGroupStats',
    replicaRead: true,
    tag: 'Categories',
    summary: 'What a group spent, by category, member or month',
    description: `Per currency: the total spent, each member’s share and payments, and the breakdown \`by\`. ${STATS_NOTE}`,
    query: groupStatsQuery,
    success: [{ status: 200, description: 'The statistics', schema: 'GroupStats' }],
  },
  {
    method: 'get',
    path: '/v1/me/stats',
    operationId: 'getMyStats',
    replicaRead: true,
    tag: 'Categories',
    summary: 'My share across my groups, by category, group or month',
    description: `Per currency: my share (as the pending members I claimed too) and what I paid, and the breakdown \`by\`. The conversion uses the provider’s rates only (groups’ own rates differ). ${STATS_NOTE}`,
    query: myStatsQuery,
    success: [{ status: 200, description: 'The statistics', schema: 'MyStats' }],
  },
];

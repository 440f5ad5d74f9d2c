import { empty, sql } from '@tally/db';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { assertRoom } from '../bounds';
import { toIso } from '../db-errors';
import type { NewId } from '../ids';
import type { GroupChange } from '../ledger/group-change';
import { StaleState, type WriteContext, type WriteResult } from '../ledger/write-runner';
import { createRunRead, named, readNamed } from '../read-queries';
import { DEFAULT_CATEGORIES, isDefaultCategory } from './default-categories';

/** A category (API.md §14): one of the default list (`groupId` null) or one of a group's own. */
export type Category = {
  id: string;
  groupId: string | null;
  name: string;
  icon: string | null;
  color: string | null;
  default: boolean;
  createdAt: string | null;
  updatedAt: string | null;
};

export type CategoryInput = { name: string; icon?: string | null; color?: string | null };
export type CategoryPatch = Partial<CategoryInput>;

type CategoryRow = {
  id: string;
  group_id: string;
  name: string;
  icon: string | null;
  color: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const toCategory = (row: CategoryRow): Category => ({
  id: row.id,
  groupId: row.group_id,
  name: row.name,
  icon: row.icon,
  color: row.color,
  default: false,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

const DEFAULTS: readonly Category[] = DEFAULT_CATEGORIES.map((c) => ({
  ...c,
  groupId: null,
  default: true,
  createdAt: null,
  updatedAt: null,
}));

export const defaultCategories = (): Category[] => DEFAULTS.map((c) => ({ ...c }));

/**
 * The group's live categories of its own with its `last_seq`, oldest first (`categories_group_idx`).
 * Given `userId`, for that member only: no row for a non-member or an unknown group.
 */
const ownCategories = (groupId: string, userId?: string) =>
  named(
    userId === undefined ? 'read_categories_own' : 'read_categories_member',
    sql`select g.last_seq, c.* from groups g${
      userId === undefined
        ? empty
        : sql`
          join group_members m on m.group_id = g.id and m.user_id = ${userId}`
    }
          left join categories c on c.group_id = g.id and c.deleted_at is null
         where g.id = ${groupId}
         order by c.created_at, c.id`,
  );

/** How many live expenses of the group are in `categoryId` (`expenses_group_category_id_idx`), at the group's `last_seq`. */
const liveExpensesIn = (groupId: string, categoryId: string) =>
  named(
    'read_category_expense_count',
    sql`select g.last_seq, (select count(*) from expenses e where e.group_id = g.id and e.category_id = ${categoryId}
                                                         and e.deleted_at is null) as live
          from groups g where g.id = ${groupId}`,
  );

const unknownCategory = (categoryId: string, path: string) =>
  new AppError('unknown_category', 422, `No category ${categoryId} in this group.`, {
    errors: [{ path, message: `${categoryId} is neither a default category nor one of the group’s own` }],
  });

/** The group's own live categories as the change's state has them (StaleState when it moved on). */
async function categoriesAt(ctx: WriteContext, change: GroupChange): Promise<Category[]> {
  const rows = await readNamed<CategoryRow & { last_seq: number | string; id: string | null }>(
    ctx.read,
    ownCategories(change.group.id),
  );
  if (!rows[0] || Number(rows[0].last_seq) !== change.startSeq) throw new StaleState();
  return rows.filter((r) => r.id !== null).map(toCategory);
}

/**
 * `422 unknown_category` (at `path`) unless `categoryId` is a default or one of the group's live
 * own categories as of the change's state. A default costs no read.
 */
export async function assertCategory(
  ctx: WriteContext,
  change: GroupChange,
  categoryId: string | null | undefined,
  path = 'categoryId',
): Promise<void> {
  if (categoryId === null || categoryId === undefined || isDefaultCategory(categoryId)) return;
  const own = await categoriesAt(ctx, change);
  if (!own.some((c) => c.id === categoryId)) throw unknownCategory(categoryId, path);
}

const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

function assertNameFree(name: string, own: readonly Category[], except?: string): void {
  const taken = [...DEFAULTS, ...own].find((c) => c.id !== except && sameName(c.name, name));
  if (taken) {
    throw new AppError(
      'category_name_taken',
      409,
      `This group already has a category named ${taken.name} (${taken.id}).`,
    );
  }
}

/**
 * Stages the end of the category `from`: deleted, and its live expenses moved to `to` (null: no
 * category), each one's version bumped, in the change's one statement.
 */
function retire(change: GroupChange, groupId: string, from: string, to: string | null, now: Date): void {
  change.write(
    sql`update categories set deleted_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          from guard where categories.id = ${from}::text`,
  );
  change.write(
    sql`update expenses set category_id = ${to}::text, version = version + 1, updated_at = ${now}::timestamptz
          from guard where expenses.group_id = ${groupId}::text and expenses.category_id = ${from}::text
                       and expenses.deleted_at is null`,
  );
}

/**
 * Categories (API.md §14): the default list, and a group's own, written as changes of the group
 * (one seq'd event each, through the keyed write pipeline).
 */
export function createCategoriesService(deps: { knex: Knex; newId: NewId }) {
  const { newId } = deps;
  const runRead = createRunRead(deps.knex);

  /** The group's own category `categoryId` (404 when it is not one, or is deleted), with the change. */
  async function openCategory(ctx: WriteContext, userId: string, groupId: string, categoryId: string) {
    const change = await ctx.open(groupId, userId);
    const own = await categoriesAt(ctx, change);
    const category = own.find((c) => c.id === categoryId);
    if (!category) throw notFound('Category');
    return { change, own, category };
  }

  /** Counts the live expenses a merge or delete moves, at the change's own seq. */
  async function expensesIn(ctx: WriteContext, change: GroupChange, categoryId: string): Promise<number> {
    const [row] = await readNamed<{ last_seq: number | string; live: number | string }>(
      ctx.read,
      liveExpensesIn(change.group.id, categoryId),
    );
    if (!row || Number(row.last_seq) !== change.startSeq) throw new StaleState();
    return Number(row.live);
  }

  return {
    async list(userId: string, groupId: string, db: Knex = deps.knex): Promise<{ data: Category[] }> {
      const rows = await readNamed<CategoryRow & { id: string | null }>(
        db === deps.knex ? runRead : createRunRead(db),
        ownCategories(groupId, userId),
      );
      if (rows.length === 0) throw notFound('Group');
      return { data: [...defaultCategories(), ...rows.filter((r) => r.id !== null).map(toCategory)] };
    },

    async create(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      input: CategoryInput,
    ): Promise<WriteResult<Category>> {
      const change = await ctx.open(groupId, userId);
      const own = await categoriesAt(ctx, change);
      assertRoom('categoriesPerGroup', own.length, `This group has ${own.length} categories of its own`);
      assertNameFree(input.name, own);
      const now = new Date();
      const category: Category = {
        id: newId('cat'),
        groupId,
        name: input.name,
        icon: input.icon ?? null,
        color: input.color ?? null,
        default: false,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      change.write(
        sql`insert into categories (id, group_id, name, icon, color, created_by, created_at, updated_at)
            select ${category.id}::text, guard.id, ${category.name}::text, ${category.icon}::text,
                   ${category.color}::text, ${userId}::text, ${now}::timestamptz, ${now}::timestamptz from guard`,
      );
      const event = change.commit('category.created', userId, { category }, { at: now });
      return { value: category, events: [event] };
    },

    /** Rename (and recolour): expenses refer by id, so the new name shows everywhere at once. */
    async patch(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      categoryId: string,
      patch: CategoryPatch,
    ): Promise<WriteResult<Category>> {
      const { change, own, category } = await openCategory(ctx, userId, groupId, categoryId);
      const next = {
        name: patch.name ?? category.name,
        icon: patch.icon === undefined ? category.icon : patch.icon,
        color: patch.color === undefined ? category.color : patch.color,
      };
      if (next.name === category.name && next.icon === category.icon && next.color === category.color) {
        return { value: category, events: [] };
      }
      if (next.name !== category.name) assertNameFree(next.name, own, categoryId);
      const now = new Date();
      const updated: Category = { ...category, ...next, updatedAt: now.toISOString() };
      change.write(
        sql`update categories set name = ${next.name}::text, icon = ${next.icon}::text, color = ${next.color}::text,
                                  updated_at = ${now}::timestamptz
              from guard where categories.id = ${categoryId}::text`,
      );
      const event = change.commit('category.updated', userId, { category: updated }, { at: now });
      return { value: updated, events: [event] };
    },

    /**
     * Deletes one of the group's own categories; its live expenses lose their category in the same
     * statement (each one's version bumped). Deleting it again is `404` (it is no longer listed).
     */
    async remove(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      categoryId: string,
    ): Promise<WriteResult<void>> {
      const { change, category } = await openCategory(ctx, userId, groupId, categoryId);
      const moved = await expensesIn(ctx, change, categoryId);
      const now = new Date();
      retire(change, groupId, categoryId, null, now);
      const event = change.commit(
        'category.deleted',
        userId,
        { category, deletedAt: now.toISOString(), uncategorized: moved },
        { at: now },
      );
      return { value: undefined, events: [event] };
    },

    /**
     * Merges one of the group's own categories into another category (a default or its own): every
     * live expense of the source moves to the target and the source is deleted, in ONE statement.
     */
    async merge(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      categoryId: string,
      into: string,
    ): Promise<WriteResult<{ category: Category; moved: number }>> {
      const { change, own, category } = await openCategory(ctx, userId, groupId, categoryId);
      if (into === categoryId) {
        throw new AppError('validation_failed', 422, 'A category cannot be merged into itself.', {
          errors: [{ path: 'into', message: 'must be another category' }],
        });
      }
      const target = [...DEFAULTS, ...own].find((c) => c.id === into);
      if (!target) throw unknownCategory(into, 'into');
      const moved = await expensesIn(ctx, change, categoryId);
      const now = new Date();
      retire(change, groupId, categoryId, into, now);
      const event = change.commit(
        'category.merged',
        userId,
        { category, into: target, moved, deletedAt: now.toISOString() },
        { at: now },
      );
      return { value: { category: target, moved }, events: [event] };
    },
  };
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;

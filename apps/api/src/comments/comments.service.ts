import { empty, raw, sql } from '@tally/db';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import { assertRoom } from '../bounds';
import { toIso } from '../db-errors';
import { decodeTimeIdCursor, pageOf } from '../http/cursor';
import type { NewId } from '../ids';
import { StaleState, type WriteContext, type WriteResult } from '../ledger/write-runner';
import { openExisting, recordNotFound } from '../open-record';
import { createRunRead, type NamedSql, named, readNamed } from '../read-queries';

/** What a comment is on (API.md §5.2). */
export type CommentTarget = { type: 'expense' | 'settlement'; id: string };

export type Comment = {
  id: string;
  groupId: string;
  targetType: 'expense' | 'settlement';
  targetId: string;
  authorId: string;
  text: string;
  createdAt: string;
};

type CommentRow = {
  id: string;
  group_id: string;
  target_type: 'expense' | 'settlement';
  target_id: string;
  author_id: string;
  text: string;
  created_at: Date | string;
  deleted_at: Date | string | null;
};

const toComment = (row: CommentRow): Comment => ({
  id: row.id,
  groupId: row.group_id,
  targetType: row.target_type,
  targetId: row.target_id,
  authorId: row.author_id,
  text: row.text,
  createdAt: toIso(row.created_at),
});

const TABLES = { expense: 'expenses', settlement: 'settlements' } as const;

/**
 * One row `{ visible: false }` when the target does not exist, is deleted, or is in a group the
 * caller is not in; else `{ visible: true }` with the page's columns (null for an empty page). The
 * target's type is a value, so one prepared statement serves both kinds.
 */
function commentsPage(
  target: CommentTarget,
  userId: string,
  limit: number,
  after: { at: Date; id: string } | undefined,
): NamedSql {
  const groupOf = (table: keyof typeof KINDS) =>
    sql`select t.group_id from ${raw(table)} t where ${target.type}::text = ${raw(`'${KINDS[table]}'`)}
           and t.id = ${target.id} and t.deleted_at is null`;
  const cursor = after
    ? sql` and (c.created_at > ${after.at} or (c.created_at = ${after.at} and c.id > ${after.id}))`
    : empty;
  return named(
    after ? 'read_comments_after' : 'read_comments_first',
    sql`select (t.group_id is not null) as visible, r.* from
          (select (${groupOf('expenses')} union all ${groupOf('settlements')}) as group_id) t0
          cross join lateral (select t0.group_id
                               where exists (select 1 from group_members m
                                              where m.group_id = t0.group_id and m.user_id = ${userId})) t
          left join lateral (select * from comments c
                              where c.target_type = ${target.type} and c.target_id = ${target.id}
                                and c.deleted_at is null${cursor}
                              order by c.created_at asc, c.id asc limit ${limit}) r on t.group_id is not null`,
  );
}
const KINDS = { expenses: 'expense', settlements: 'settlement' } as const;

/**
 * The target's live comments (`commentsPerTarget`, API.md §9.1), with the `last_seq` of its group
 * the count is of: `comments_target_idx`.
 */
const liveCount = (target: CommentTarget, groupId: string) =>
  named(
    'write_comments_live',
    sql`select g.last_seq, (select count(*) from comments c where c.target_type = ${target.type} and c.target_id = ${target.id}
                                                            and c.deleted_at is null) as live
          from groups g where g.id = ${groupId}`,
  );

/**
 * Comments on expenses and settlements (API.md §5.2). A comment belongs to its target's group: its
 * writes are changes of that group (a seq'd event each), its reads need the caller's membership.
 */
export function createCommentsService(deps: { knex: Knex; newId: NewId }) {
  const { newId } = deps;
  const runRead = createRunRead(deps.knex);

  return {
    async create(
      ctx: WriteContext,
      userId: string,
      target: CommentTarget,
      text: string,
    ): Promise<WriteResult<Comment>> {
      // A target in a group the caller is not in answers exactly like an unknown or deleted one.
      const { change } = await openExisting<{ deleted_at: string | null }>(
        ctx,
        TABLES[target.type],
        target.id,
        userId,
        {
          live: true,
        },
      );
      // Counted at the change's own seq, so two comments cannot both take the last place.
      const [count] = await readNamed<{ last_seq: number | string; live: number | string }>(
        ctx.read,
        liveCount(target, change.group.id),
      );
      if (!count || Number(count.last_seq) !== change.startSeq) throw new StaleState();
      assertRoom('commentsPerTarget', Number(count.live), `This ${target.type} has ${count.live} comments`);
      const now = new Date();
      const comment: Comment = {
        id: newId('cmt'),
        groupId: change.group.id,
        targetType: target.type,
        targetId: target.id,
        authorId: userId,
        text,
        createdAt: now.toISOString(),
      };
      change.write(
        sql`insert into comments (id, group_id, target_type, target_id, author_id, text, created_at)
            select ${comment.id}::text, guard.id, ${comment.targetType}::text, ${comment.targetId}::text,
                   ${userId}::text, ${text}::text, ${now}::timestamptz from guard`,
      );
      const event = change.commit('comment.created', userId, { comment }, { at: now });
      return { value: comment, events: [event] };
    },

    /**
     * By its author only: another member (who can see it) gets `403 forbidden`, a non-member `404`.
     * Deleting a deleted comment is `204` again, with no second event.
     */
    async remove(ctx: WriteContext, userId: string, commentId: string): Promise<WriteResult<void>> {
      const { change, row } = await openExisting<CommentRow>(ctx, 'comments', commentId, userId);
      if (row.author_id !== userId) {
        throw new AppError('forbidden', 403, 'Only the author of a comment can delete it.');
      }
      if (row.deleted_at) return { value: undefined, events: [] };
      const now = new Date();
      change.write(
        sql`update comments set deleted_at = ${now}::timestamptz from guard where comments.id = ${commentId}::text`,
      );
      const comment = toComment(row);
      const event = change.commit(
        'comment.deleted',
        userId,
        { comment, deletedAt: now.toISOString() },
        { at: now },
      );
      return { value: undefined, events: [event] };
    },

    /** Oldest first; `404` for a target the caller cannot see (unknown, deleted, or another group's). */
    async list(userId: string, target: CommentTarget, query: { limit: number; cursor?: string }) {
      let after: { at: Date; id: string } | undefined;
      try {
        after = decodeTimeIdCursor(query.cursor, 'comment');
      } catch (invalid) {
        const [row] = await readNamed<{ visible: boolean }>(
          runRead,
          commentsPage(target, userId, query.limit + 1, undefined),
        );
        if (!row?.visible) throw recordNotFound(TABLES[target.type]);
        throw invalid;
      }
      const rows = await readNamed<CommentRow & { visible: boolean }>(
        runRead,
        commentsPage(target, userId, query.limit + 1, after),
      );
      if (!rows[0]?.visible) throw recordNotFound(TABLES[target.type]);
      const comments = rows.filter((row) => row.id !== null).map(toComment);
      return pageOf(comments, query.limit, (c) => [c.createdAt, c.id]);
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;

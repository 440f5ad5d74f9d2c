import { empty, queryNamed, queryPooled, raw, type Sql, sql, takePooledConnection } from '@tally/db';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { type CursorIdKind, decodeTimeIdCursor } from './http/cursor';
import { balancesSnapshot, groupSnapshot } from './ledger/group-snapshot';

/**
 * A read the hot GET routes run as ONE statement: a `pg` named (prepared) query, parsed and planned
 * once per pooled connection, then sent with only its values: no per-request query building. The
 * caller's membership check is folded into the statement, so a read is one round trip.
 */
export type ReadQuery = { name: string; text: string };

export type RunRead = <R>(query: ReadQuery, values: unknown[]) => Promise<R[]>;

/**
 * Runs read queries on a pooled connection of `knex`'s pool (the pool's limits and errors apply as
 * for any knex query), through `@tally/db`'s one adapter of knex's internals (the hot reads' speed).
 */
export function createRunRead(knex: Knex): RunRead {
  return <R>(query: ReadQuery, values: unknown[]) => queryPooled<R>(knex, query, values);
}

/**
 * A transaction on one pooled connection: `run` sends its queries there; `end` commits (or, after
 * an error, rolls back) and gives the connection back. For the rare write that must hold a lock
 * across several statements.
 */
export async function openTransaction(
  knex: Knex,
): Promise<{ run: RunRead; end(commit: boolean): Promise<void> }> {
  const { connection, release } = await takePooledConnection(knex);
  const run: RunRead = (query, values) => queryNamed(knex, connection, query, values);
  try {
    await connection.query('begin');
  } catch (error) {
    await release();
    throw error;
  }
  return {
    run,
    async end(commit) {
      try {
        await connection.query(commit ? 'commit' : 'rollback');
      } finally {
        await release();
      }
    },
  };
}

/** A statement `pg` prepares once per connection under `name`: every statement of one name has one text. */
export type NamedSql = { readonly name: string; readonly statement: Sql };

export const named = (name: string, statement: Sql): NamedSql => ({ name, statement });

/** Runs a named statement on `runRead` (a pooled read, or a change's `ctx.read`): its text, then its values. */
export const readNamed = <R>(runRead: RunRead, query: NamedSql): Promise<R[]> =>
  runRead<R>({ name: query.name, text: query.statement.text }, [...query.statement.values]);

const isMember = (groupId: string, userId: string) =>
  sql`exists (select 1 from group_members m where m.group_id = ${groupId} and m.user_id = ${userId})`;

/** Who asks for which page of a group's list (`limit` rows at most). */
export type PageParams = { groupId: string; userId: string; limit: number };

/**
 * A page of a group's list, with the caller's membership in the same statement: one row
 * `{ member: false }` for a non-member (or an unknown group), one row `{ member: true }` with null
 * columns for a member's empty page, else the page's rows, each with `member: true`. `after` is the
 * condition of the rows after a cursor, given the cursor's values (`[time, id]`).
 */
export function groupPage(
  name: string,
  table: string,
  where: Sql,
  order: Sql,
  after: (cursor: readonly unknown[]) => Sql,
) {
  return (p: PageParams, cursor: readonly unknown[] | undefined): NamedSql =>
    named(
      cursor ? `${name}_after` : `${name}_first`,
      sql`select a.member, r.* from (select ${isMember(p.groupId, p.userId)} as member) a
            left join lateral (select * from ${raw(table)} where group_id = ${p.groupId} and ${where}${
              cursor ? sql` and ${after(cursor)}` : empty
            }
                               order by ${order} limit ${p.limit}) r on a.member`,
    );
}
export type GroupPage = ReturnType<typeof groupPage>;

/** `(time, id)` before the cursor's, in a list ordered by `time desc, id desc`. */
export const beforeCursor =
  (time: string) =>
  ([at, id]: readonly unknown[]): Sql =>
    sql`(${raw(time)} < ${at} or (${raw(time)} = ${at} and id < ${id}))`;

/**
 * A group's members as `[userId, name, joinedAt, status, claimed]`, in join order; `g` is the group.
 * A pending member an account claimed is not listed: its id is in the account's `claimed` (API.md §3.1).
 */
export const membersOfG = raw(`(select json_agg(json_build_array(gm.user_id, u.name, gm.joined_at, u.status,
            (select json_agg(c.user_id order by c.joined_at, c.user_id) from group_members c
              where c.group_id = g.id and c.claimed_by = gm.user_id))
          order by gm.joined_at, gm.user_id)
          from group_members gm join users u on u.id = gm.user_id
         where gm.group_id = g.id and gm.claimed_by is null) as members`);

/** A live record of a group the caller is a member of: no row for any other id (API.md §1). */
export const liveRecordOfMember = (name: string, table: string, id: string, userId: string) =>
  named(
    name,
    sql`select r.* from ${raw(table)} r
         where r.id = ${id} and r.deleted_at is null
           and exists (select 1 from group_members m where m.group_id = r.group_id and m.user_id = ${userId})`,
  );

export const READS = {
  expense: (expenseId: string, userId: string) =>
    liveRecordOfMember('read_expense', 'expenses', expenseId, userId),
  settlement: (settlementId: string, userId: string) =>
    liveRecordOfMember('read_settlement', 'settlements', settlementId, userId),
  expenses: groupPage(
    'read_expenses',
    'expenses',
    sql`deleted_at is null`,
    sql`occurred_at desc, id desc`,
    beforeCursor('occurred_at'),
  ),
  settlements: groupPage(
    'read_settlements',
    'settlements',
    sql`deleted_at is null`,
    sql`created_at desc, id desc`,
    beforeCursor('created_at'),
  ),
  /**
   * A page of the event log after `afterSeq`, with the group's current seq (`group_seq`), in one
   * snapshot (see `readEventPage`).
   */
  events: (p: PageParams, afterSeq: number) =>
    named(
      'read_events',
      sql`select a.member, a.group_seq, r.* from
            (select ${isMember(p.groupId, p.userId)} as member,
                    (select g.last_seq from groups g where g.id = ${p.groupId}) as group_seq) a
            left join lateral (select * from events where group_id = ${p.groupId} and seq > ${afterSeq}
                               order by seq asc limit ${p.limit}) r on a.member`,
    ),
  /**
   * A group's snapshot for its balances, as `readGroupSnapshot` reads it (one consistent statement);
   * the caller's membership is in `member_ids`.
   */
  snapshot: (groupId: string) => named('read_group_snapshot', groupSnapshot(sql`${groupId}`)),
  /** The snapshot with the group's original debts (API.md §6), in one statement. */
  balances: (groupId: string) => named('read_group_balances', balancesSnapshot(groupId)),
  /** A group with its members (as in `groups`), when the caller is one of them. */
  group: (groupId: string, userId: string) =>
    named(
      'read_group',
      sql`select g.*, ${membersOfG} from groups g
           where g.id = ${groupId}
             and exists (select 1 from group_members m where m.group_id = g.id and m.user_id = ${userId})`,
    ),
  /**
   * The caller's groups, newest membership first, each with its members (`[userId, name, joinedAt]`
   * in join order), after the cursor's `[time, id]` if any; `archived`: only the archived ones
   * (true) or only the others (false).
   */
  groups: (userId: string, limit: number, cursor: { at: Date; id: string } | undefined, archived?: boolean) =>
    named(
      `read_groups_${cursor ? 'after' : 'first'}${archived === undefined ? '' : archived ? '_archived' : '_active'}`,
      sql`select g.*, m.joined_at as member_since, ${membersOfG}
            from group_members m join groups g on g.id = m.group_id
           where m.user_id = ${userId}${
             archived === undefined
               ? empty
               : archived
                 ? sql` and g.archived_at is not null`
                 : sql` and g.archived_at is null`
           } ${
             cursor
               ? sql`and (m.joined_at < ${cursor.at} or (m.joined_at = ${cursor.at} and g.id < ${cursor.id}))`
               : empty
           }
           order by m.joined_at desc, g.id desc limit ${limit}`,
    ),
  /** Only the membership, for a list whose cursor turned out to be invalid (member → 422, else 404). */
  membership: (groupId: string, userId: string) =>
    named('read_membership', sql`select ${isMember(groupId, userId)} as member`),
};

type PageRow = { member: boolean; id: string | null };

/**
 * The cursor `decode` reads, or, for a bad one, the group's `404` to a non-member (membership is
 * checked first: they learn nothing, not even that the cursor is bad), else the cursor's `422`.
 */
async function decodedOr404<T>(runRead: RunRead, params: PageParams, decode: () => T): Promise<T> {
  try {
    return decode();
  } catch (invalid) {
    const [row] = await readNamed<PageRow>(runRead, READS.membership(params.groupId, params.userId));
    if (!row?.member) throw notFound('Group');
    throw invalid;
  }
}

/**
 * The rows of one page of a group's list, in one statement. Non-members get the group's `404`
 * (also when their cursor is bad: membership is checked first); a bad cursor is then the `422`.
 * `after` decodes the cursor into its values, or returns undefined for none.
 */
export async function readGroupPage<R>(
  runRead: RunRead,
  page: GroupPage,
  params: PageParams,
  after: () => readonly unknown[] | undefined,
): Promise<R[]> {
  const cursor = await decodedOr404(runRead, params, after);
  const rows = await readNamed<PageRow>(runRead, page(params, cursor));
  if (!rows[0]?.member) throw notFound('Group');
  return rows.filter((row) => row.id !== null) as R[];
}

/**
 * A page of a group's event log after `afterSeq` (decoded by `after`, which may throw for a bad
 * cursor: then non-members still get the `404`), in one statement. The log has no gaps, so a page
 * that does not start at `afterSeq + 1`, or is empty while the group is further on, means the events
 * after `afterSeq` are no longer kept (`EVENT_RETENTION_DAYS`): `410 resync_required`, never a page
 * that silently skips them.
 */
export async function readEventPage<R extends { id: string | null; seq: number | string }>(
  runRead: RunRead,
  params: PageParams,
  after: () => number,
): Promise<R[]> {
  const afterSeq = await decodedOr404(runRead, params, after);
  const rows = await readNamed<R & PageRow & { group_seq: number | string | null }>(
    runRead,
    READS.events(params, afterSeq),
  );
  const [first] = rows;
  if (!first?.member) throw notFound('Group');
  const events = rows.filter((row) => row.id !== null);
  const next = events[0];
  if (next ? Number(next.seq) > afterSeq + 1 : Number(first.group_seq ?? 0) > afterSeq) {
    throw new AppError(
      'resync_required',
      410,
      `The events after seq ${afterSeq} are no longer kept. Read the group's state again (its balances ` +
        'carry asOfSeq) and continue the log from there.',
    );
  }
  return events;
}

/** The `[time, id]` cursor of the time-ordered lists as the values of a `groupPage` `after` query. */
export const timeIdAfter = (cursor: string | undefined, ids: CursorIdKind) => () => {
  const after = decodeTimeIdCursor(cursor, ids);
  return after ? [after.at, after.id] : undefined;
};

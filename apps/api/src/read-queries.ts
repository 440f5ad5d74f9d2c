import { queryNamed, takePooledConnection, withPooledConnection } from '@tally/db';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { type CursorIdKind, decodeTimeIdCursor } from './http/cursor';
import { groupSnapshotSql } from './ledger/group-snapshot';

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
  return <R>(query: ReadQuery, values: unknown[]) =>
    withPooledConnection(knex, (connection) => queryNamed<R>(knex, connection, query, values));
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

const isMember = 'exists (select 1 from group_members m where m.group_id = $1 and m.user_id = $2)';

/**
 * A page of a group's list, with the caller's membership in the same statement: one row
 * `{ member: false }` for a non-member (or an unknown group), one row `{ member: true }` with null
 * columns for a member's empty page, else the page's rows, each with `member: true`.
 * `$1` group, `$2` user, `$3` limit, and after a cursor `$4` time, `$5` id.
 */
export function groupPage(name: string, table: string, where: string, order: string, after: string) {
  const page = (cursor: string) =>
    `select a.member, r.* from (select ${isMember} as member) a
       left join lateral (select * from ${table} where group_id = $1 and ${where}${cursor}
                          order by ${order} limit $3) r on a.member`;
  return {
    first: { name: `${name}_first`, text: page('') },
    after: { name: `${name}_after`, text: page(` and ${after}`) },
  };
}

/**
 * A group's members as `[userId, name, joinedAt, status, claimed]`, in join order; `g` is the group.
 * A pending member an account claimed is not listed: its id is in the account's `claimed` (API.md §3.1).
 */
export const membersOfG = `(select json_agg(json_build_array(gm.user_id, u.name, gm.joined_at, u.status,
            (select json_agg(c.user_id order by c.joined_at, c.user_id) from group_members c
              where c.group_id = g.id and c.claimed_by = gm.user_id))
          order by gm.joined_at, gm.user_id)
          from group_members gm join users u on u.id = gm.user_id
         where gm.group_id = g.id and gm.claimed_by is null) as members`;

function groupsPage(cursor: string) {
  return `select g.*, m.joined_at as member_since, ${membersOfG}
     from group_members m join groups g on g.id = m.group_id
    where m.user_id = $1 ${cursor}
    order by m.joined_at desc, g.id desc limit $2`;
}

export const READS = {
  expense: {
    name: 'read_expense',
    text: `select e.* from expenses e
            where e.id = $1 and e.deleted_at is null
              and exists (select 1 from group_members m where m.group_id = e.group_id and m.user_id = $2)`,
  },
  settlement: {
    name: 'read_settlement',
    text: `select s.* from settlements s
            where s.id = $1 and s.deleted_at is null
              and exists (select 1 from group_members m where m.group_id = s.group_id and m.user_id = $2)`,
  },
  expenses: groupPage(
    'read_expenses',
    'expenses',
    'deleted_at is null',
    'occurred_at desc, id desc',
    '(occurred_at < $4 or (occurred_at = $4 and id < $5))',
  ),
  settlements: groupPage(
    'read_settlements',
    'settlements',
    'deleted_at is null',
    'created_at desc, id desc',
    '(created_at < $4 or (created_at = $4 and id < $5))',
  ),
  /**
   * A page of the event log with the group's current seq (`group_seq`), in one snapshot (see
   * `readEventPage`). `$1` group, `$2` user, `$3` limit, `$4` the seq to read after.
   */
  events: {
    name: 'read_events',
    text: `select a.member, a.group_seq, r.* from
             (select ${isMember} as member, (select g.last_seq from groups g where g.id = $1) as group_seq) a
             left join lateral (select * from events where group_id = $1 and seq > $4
                                order by seq asc limit $3) r on a.member`,
  },
  /**
   * A group's snapshot for its balances, as `readGroupSnapshot` reads it (one consistent statement);
   * the caller's membership is in `member_ids`. `$1` group.
   */
  snapshot: {
    name: 'read_group_snapshot',
    text: groupSnapshotSql('$1'),
  },
  /** A group with its members (as in `groups`), when the caller is one of them. `$1` group, `$2` user. */
  group: {
    name: 'read_group',
    text: `select g.*, ${membersOfG} from groups g
            where g.id = $1 and exists (select 1 from group_members m where m.group_id = g.id and m.user_id = $2)`,
  },
  /**
   * The caller's groups, newest membership first, each with its members (`[userId, name, joinedAt]`
   * in join order). `$1` user, `$2` limit, and after a cursor `$3` time, `$4` id.
   */
  groups: {
    first: { name: 'read_groups_first', text: groupsPage('') },
    after: {
      name: 'read_groups_after',
      text: groupsPage('and (m.joined_at < $3 or (m.joined_at = $3 and g.id < $4))'),
    },
  },
  /** Only the membership, for a list whose cursor turned out to be invalid (member → 422, else 404). */
  membership: { name: 'read_membership', text: `select ${isMember} as member` },
} satisfies Record<string, ReadQuery | { first: ReadQuery; after: ReadQuery }>;

type PageRow = { member: boolean; id: string | null };

/**
 * The rows of one page of a group's list, in one statement. Non-members get the group's `404`
 * (also when their cursor is bad: membership is checked first); a bad cursor is then the `422`.
 * `after` decodes the cursor into the values of `queries.after`, or returns undefined for none.
 */
export async function readGroupPage<R>(
  runRead: RunRead,
  queries: { first: ReadQuery; after: ReadQuery },
  params: { groupId: string; userId: string; limit: number },
  after: () => unknown[] | undefined,
): Promise<R[]> {
  const head = [params.groupId, params.userId, params.limit];
  let cursor: unknown[] | undefined;
  try {
    cursor = after();
  } catch (invalid) {
    const [row] = await runRead<PageRow>(READS.membership, head.slice(0, 2));
    if (!row?.member) throw notFound('Group');
    throw invalid;
  }
  const rows = await runRead<PageRow>(
    cursor ? queries.after : queries.first,
    cursor ? [...head, ...cursor] : head,
  );
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
  params: { groupId: string; userId: string; limit: number },
  after: () => number,
): Promise<R[]> {
  const head = [params.groupId, params.userId, params.limit];
  let afterSeq: number;
  try {
    afterSeq = after();
  } catch (invalid) {
    const [row] = await runRead<PageRow>(READS.membership, head.slice(0, 2));
    if (!row?.member) throw notFound('Group');
    throw invalid;
  }
  const rows = await runRead<R & PageRow & { group_seq: number | string | null }>(READS.events, [
    ...head,
    afterSeq,
  ]);
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

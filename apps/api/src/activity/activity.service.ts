import { empty, raw, runSql, sql } from '@tally/db';
import { notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { decodeTimeIdCursor, pageOf } from '../http/cursor';
import { jsonColumn } from '../json-column';
import { createRunRead, named, readNamed } from '../read-queries';

/** One item of the feed: a group's event with the group's id and name (API.md §8a). */
export type ActivityItem = {
  id: string;
  groupId: string;
  groupName: string;
  seq: number;
  type: string;
  actorId: string;
  occurredAt: string;
  data: Record<string, unknown>;
};

/** How many newer items `unread` counts at most: counting stays a bounded index scan per group. */
export const UNREAD_CAP = 100;

export type Unread = { unread: number; unreadCapped: boolean; readUpTo: string | null };
export type ActivityPage = { data: ActivityItem[]; nextCursor: string | null } & Unread;

type ItemRow = {
  id: string;
  group_id: string;
  group_name: string;
  seq: number | string;
  type: string;
  actor_id: string;
  occurred_at: Date | string;
  data: Record<string, unknown> | string;
};

const toItem = (row: ItemRow): ActivityItem => ({
  id: row.id,
  groupId: row.group_id,
  groupName: row.group_name,
  seq: Number(row.seq),
  type: row.type,
  actorId: row.actor_id,
  occurredAt: new Date(row.occurred_at).toISOString(),
  data: jsonColumn(row.data) ?? {},
});

/**
 * The feed's order is (`occurred_at` desc, `id` desc), a total order a cursor names exactly. Each
 * group of the caller is read on its own, by `events_group_time_idx`, newest first and at most
 * `limit + 1` keys (a LATERAL index-only scan per membership); the keys are merged, and only the
 * page's rows are then read whole (their `data`). The cost is per group the caller is in, never per
 * event they can see. A member sees the events from their `joined_at` on; a member who left has no
 * row, so sees nothing of that group any more. An archived group's events leave the feed (API.md §3).
 */
const feedStatement = (userId: string, take: number, after: { at: Date; id: string } | undefined) =>
  named(
    after ? 'tally_activity_after' : 'tally_activity_first',
    sql`
  with top as (
    select e.group_id, e.occurred_at, e.id, g.name
      from group_members m
      join groups g on g.id = m.group_id
      cross join lateral (
        select x.group_id, x.occurred_at, x.id from events x
         where x.group_id = m.group_id and x.occurred_at >= m.joined_at
           ${after ? sql`and (x.occurred_at, x.id) < (${after.at}::timestamptz, ${after.id}::text)` : empty}
         order by x.occurred_at desc, x.id desc
         limit ${take}) e
     where m.user_id = ${userId} and g.archived_at is null
     order by e.occurred_at desc, e.id desc
     limit ${take})
  select x.id, x.group_id, top.name as group_name, x.seq, x.type, x.actor_id, x.occurred_at, x.data
    from top
    join events x on x.group_id = top.group_id and x.occurred_at = top.occurred_at and x.id = top.id
   order by x.occurred_at desc, x.id desc`,
  );

/**
 * Items newer than the caller's marker (all of them without one), counted up to `UNREAD_CAP + 1`:
 * each group stops after that many, and so does the sum.
 */
/** The cap as text of the statement (a constant, as the plan was made with). */
const CAP_PLUS_ONE = raw(String(UNREAD_CAP + 1));

const unreadCount = (userId: string) => sql`
  select count(*)::int as n from (
    select 1 from group_members m
      join groups g on g.id = m.group_id and g.archived_at is null
      left join activity_read_markers r on r.user_id = m.user_id
     cross join lateral (
       select 1 from events x
        where x.group_id = m.group_id and x.occurred_at >= m.joined_at
          and (r.user_id is null or (x.occurred_at, x.id) > (r.read_at, r.read_id))
        order by x.occurred_at desc, x.id desc
        limit ${CAP_PLUS_ONE}) e
     where m.user_id = ${userId}
     limit ${CAP_PLUS_ONE}) c`;

/**
 * Moves the marker to the item `upTo`, an event of a group the caller is in and sees (from their
 * `joined_at` on), and only forward. Answers whether the item was found and the marker after.
 */
const markRead = (userId: string, upTo: string) => sql`
  with target as (
    select e.occurred_at, e.id from events e
      join group_members m on m.group_id = e.group_id and m.user_id = ${userId}
     where e.id = ${upTo} and e.occurred_at >= m.joined_at
     limit 1),
  moved as (
    insert into activity_read_markers (user_id, read_at, read_id, updated_at)
    select ${userId}, t.occurred_at, t.id, now() from target t
    on conflict (user_id) do update
       set read_at = excluded.read_at, read_id = excluded.read_id, updated_at = excluded.updated_at
     where (activity_read_markers.read_at, activity_read_markers.read_id) < (excluded.read_at, excluded.read_id)
    returning read_id)
  select (select count(*)::int from target) as found,
         coalesce((select read_id from moved),
                  (select read_id from activity_read_markers where user_id = ${userId})) as read_id`;

export function createActivityService(deps: { knex: Knex }) {
  const { knex } = deps;

  async function unreadOf(userId: string): Promise<Unread> {
    const [counted, marker] = await Promise.all([
      runSql<{ n: number }>(knex, unreadCount(userId)),
      knex('activity_read_markers').where({ user_id: userId }).first('read_id') as Promise<
        { read_id: string } | undefined
      >,
    ]);
    const n = Number(counted[0]?.n ?? 0);
    return {
      unread: Math.min(n, UNREAD_CAP),
      unreadCapped: n > UNREAD_CAP,
      readUpTo: marker?.read_id ?? null,
    };
  }

  return {
    /**
     * One page of the caller's feed, newest first, with the unread count. The feed is read on `db`
     * (where the request's reads go, read-routing.ts; the primary by default); the count and the
     * read marker always on the primary, as the caller's own marker moves there (`markRead`).
     */
    async list(
      userId: string,
      query: { limit: number; cursor?: string | undefined },
      db: Knex = knex,
    ): Promise<ActivityPage> {
      const after = decodeTimeIdCursor(query.cursor, 'event');
      const take = query.limit + 1;
      const [rows, unread] = await Promise.all([
        // A `pg` named (prepared) statement: the feed's plan (a LATERAL over every partition) takes
        // longer to plan than to run, so it is planned once per connection. PGlite has none.
        readNamed<ItemRow>(createRunRead(db), feedStatement(userId, take, after)),
        unreadOf(userId),
      ]);
      const page = pageOf(rows.map(toItem), query.limit, (item) => [item.occurredAt, item.id]);
      return { ...page, ...unread };
    },

    unread: unreadOf,

    /**
     * Moves the caller's read marker to `upTo` (forward only: an older item leaves it where it is).
     * 404 for an id that is not an item of the caller's feed (unknown, another group's, from before
     * they joined, or dropped by retention).
     */
    async markRead(userId: string, upTo: string): Promise<Unread> {
      const [marked] = await runSql<{ found: number }>(knex, markRead(userId, upTo));
      if (Number(marked?.found ?? 0) === 0) throw notFound('Activity item');
      return unreadOf(userId);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

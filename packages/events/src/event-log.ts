import type { Knex } from 'knex';

export type EventType =
  | 'group.updated'
  | 'member.added'
  | 'member.removed'
  | 'member.claimed'
  | 'invite.created'
  | 'invite.revoked'
  | 'expense.created'
  | 'expense.updated'
  | 'expense.deleted'
  | 'settlement.created'
  | 'settlement.deleted'
  | 'recurring.created'
  | 'recurring.updated'
  | 'recurring.deleted'
  | 'recurring.skipped'
  | 'rates.updated'
  | 'comment.created'
  | 'comment.deleted'
  | 'import.started'
  | 'import.completed'
  | 'expense.receipt_changed'
  | 'category.created'
  | 'category.updated'
  | 'category.deleted'
  | 'category.merged';

/** One entry of a group's durable, ordered log (API.md §8). */
export type GroupEvent = {
  id: string;
  seq: number;
  type: EventType;
  groupId: string;
  actorId: string;
  occurredAt: string;
  data: Record<string, unknown>;
};

type EventRow = {
  id: string;
  group_id: string;
  seq: number | string;
  type: EventType;
  actor_id: string;
  occurred_at: Date | string;
  data: Record<string, unknown> | string;
};

export const toEvent = (row: EventRow): GroupEvent => ({
  id: row.id,
  seq: Number(row.seq),
  type: row.type,
  groupId: row.group_id,
  actorId: row.actor_id,
  occurredAt: new Date(row.occurred_at).toISOString(),
  data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
});

/**
 * How far around this process's clock the first read of `read` looks: the partitions of `events`
 * (by `occurred_at`, a day each) that new events are in. Writers' clocks may differ from this one by
 * far less; an event outside the window is still found, by the second read.
 */
const RECENT_WINDOW_MS = 86_400_000;

/** Read access to the event log: what the API's events endpoint and the gateway's catch-up use. */
export function createEventLog(deps: { knex: Knex }) {
  const { knex } = deps;

  /** The events after `afterSeq`, oldest first, at most `limit` (every partition, unless narrowed). */
  const eventsAfter = (groupId: string, afterSeq: number, limit: number) =>
    knex('events').where({ group_id: groupId }).where('seq', '>', afterSeq).orderBy('seq').limit(limit);

  /**
   * The events after `afterSeq` in the window of `occurred_at` `[from, to)` (its partitions), with
   * the group's seq, in one statement. Sent as a `pg` named (prepared) statement: its text is the
   * same for every call (knex's builder, public API); PGlite ignores the name.
   */
  const recentEvents = (groupId: string, afterSeq: number, limit: number, from: Date, to: Date) =>
    knex('groups as g')
      .select('g.last_seq as group_seq', 'e.*')
      .leftJoin(
        eventsAfter(groupId, afterSeq, limit)
          .where('occurred_at', '>=', from)
          .where('occurred_at', '<', to)
          .as('e'),
        knex.raw('true'),
      )
      .where('g.id', groupId)
      .options({ name: 'tally_event_log_recent' });

  return {
    /**
     * Events with `seq > afterSeq`, oldest first. Reads the newest partitions first (what a feed
     * following the log and a short catch-up need), with the group's seq in the same snapshot: the
     * answer is complete when it runs on from `afterSeq + 1` without a gap and ends at the group's
     * seq (or fills `limit`). Anything else (an older catch-up, a writer's clock far off, events no
     * longer kept) reads every partition.
     */
    async read(groupId: string, afterSeq: number, limit: number): Promise<GroupEvent[]> {
      const now = Date.now();
      const window = [new Date(now - RECENT_WINDOW_MS), new Date(now + RECENT_WINDOW_MS)] as const;
      const recent: (EventRow & { group_seq: number | string | null; id: string | null })[] =
        await recentEvents(groupId, afterSeq, limit, ...window);
      const head = recent[0]?.group_seq;
      const rows = recent.filter((row) => row.id !== null);
      const runs = rows.every((row, i) => Number(row.seq) === afterSeq + 1 + i);
      const last = rows[rows.length - 1];
      const reachesHead =
        head !== undefined &&
        head !== null &&
        (last === undefined ? Number(head) <= afterSeq : Number(last.seq) === Number(head));
      if (runs && (rows.length === limit || reachesHead)) return rows.map(toEvent);
      const all: EventRow[] = await eventsAfter(groupId, afterSeq, limit).options({
        name: 'tally_event_log_read',
      });
      return all.map(toEvent);
    },
    /**
     * Whether the log still holds the group's event `seq`. Events go only by retention
     * (`EVENT_RETENTION_DAYS`, whole partitions, oldest first), so for a seq at or below the group's
     * current one, false means everything up to it is gone: a resume from before it must resync.
     */
    async holds(groupId: string, seq: number): Promise<boolean> {
      const row = await knex('events').where({ group_id: groupId, seq }).first('seq');
      return row !== undefined;
    },
    /** The ids of the groups `userId` is a member of (the gateway's activity, API.md §8a). */
    async groupsOf(userId: string): Promise<string[]> {
      const rows: { group_id: string }[] = await knex('group_members')
        .where({ user_id: userId })
        .select('group_id');
      return rows.map((row) => row.group_id);
    },
    async isMember(groupId: string, userId: string): Promise<boolean> {
      const row = await knex('group_members').where({ group_id: groupId, user_id: userId }).first('user_id');
      return row !== undefined;
    },
    /** The group's latest `seq` (0 for none), or undefined for an unknown group. */
    async lastSeq(groupId: string): Promise<number | undefined> {
      const row = await knex('groups').where({ id: groupId }).first('last_seq');
      return row ? Number(row.last_seq) : undefined;
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;

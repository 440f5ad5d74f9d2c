import type { BalanceDelta } from '@tally/domain';
import type { EventType, GroupEvent } from '@tally/events';
import { AppError } from '@tally/http-kit';
import { durableRecordInsertSql } from '@tally/idempotency';
import { newId } from '../ids';
import type { GroupRow } from './group-access';
import {
  balancesOf,
  type CurrencyBalances,
  copyState,
  type GroupSnapshot,
  type GroupState,
  groupSnapshotSql,
} from './group-snapshot';

/**
 * One CTE of a change's statement: a domain row's insert, update or delete. Its placeholders are
 * numbered from `$1` (the statement renumbers them), and it must take effect only through
 * `guard`, the group's row as the guard bumped it (`… from guard`, `… using guard`), so that a
 * change whose snapshot is out of date writes nothing at all.
 */
export type StatementPart = { name: string; sql: string };

/** A statement sent as a `pg` named (prepared) statement: parsed and planned once per connection. */
export type PreparedStatement = { name: string; text: string; values: unknown[] };

/**
 * What the guard does: `bump` moves an existing group from the snapshot's `last_seq` to the next
 * one (and writes its name, description and version), and bumps nothing when another change got
 * there first; `create` inserts a new group.
 */
const GUARDS = {
  bump: {
    name: 'bump',
    sql: `update groups set last_seq = $1::bigint, version = $2::integer, name = $3::text, description = $4::text,
                            updated_at = coalesce($5::timestamptz, updated_at)
           where id = $6::text and last_seq = $7::bigint returning id`,
  },
  create: {
    name: 'create',
    sql: `insert into groups (id, last_seq, version, name, description, updated_at, currency, created_at)
          select $6::text, $1::bigint, $2::integer, $3::text, $4::text, $5::timestamptz, $8::text, $5::timestamptz
           where $7::bigint = 0
          returning id`,
  },
} as const satisfies Record<string, StatementPart>;

/** The staged balance deltas, the live-record counts per currency and the event: in every change. */
const TAIL: StatementPart[] = [
  {
    name: 'balances',
    sql: `insert into balances (group_id, currency, user_id, net)
          select guard.id, x.currency, x.user_id, x.delta
            from guard, jsonb_to_recordset($1::jsonb) as x(currency text, user_id text, delta bigint)
          on conflict (group_id, currency, user_id) do update set net = balances.net + excluded.net`,
  },
  {
    name: 'currencies',
    sql: `insert into group_currencies (group_id, currency, live_records)
          select guard.id, x.currency, x.by from guard, jsonb_to_recordset($1::jsonb) as x(currency text, by integer)
          on conflict (group_id, currency)
          do update set live_records = group_currencies.live_records + excluded.live_records`,
  },
  {
    name: 'event',
    sql: `insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
          select $1::text, guard.id, $2::bigint, $3::text, $4::text, $5::timestamptz, $6::jsonb from guard`,
  },
];

const RECORD: StatementPart = { name: 'record', sql: durableRecordInsertSql('guard') };

/** The highest `$n` of a part: how many values it takes. */
const arity = (sql: string): number => Math.max(0, ...[...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));

/** Statement texts by shape (guard, parts, keyed): each is composed once per process. */
const composed = new Map<string, { name: string; text: string }>();

/**
 * The text of a change's one statement: the guard, the domain parts, the tail and (keyed) the
 * durable record, each a CTE, then `tally_write_settled` (migration 002), which undoes the whole
 * statement when the record's key already had a live record. When the guard bumped nothing the
 * statement wrote nothing, and its row carries the group's current snapshot instead, for the retry;
 * a statement that applied reads no snapshot.
 */
function compose(guard: StatementPart, parts: readonly StatementPart[], keyed: boolean) {
  const key = `${guard.name}|${parts.map((p) => p.name).join(',')}|${keyed ? 'keyed' : 'plain'}`;
  const known = composed.get(key);
  if (known) return known;
  let offset = 0;
  const cte = (label: string, part: StatementPart) => {
    const sql = part.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`);
    offset += arity(part.sql);
    return `${label} as (${sql})`;
  };
  const ctes = [
    cte('guard', guard),
    ...parts.map((part, i) => cte(`d${i}`, part)),
    ...TAIL.map((part) => cte(`t_${part.name}`, part)),
    ...(keyed ? [cte('record', RECORD)] : []),
  ];
  const groupParam = `$${offset + 1}::text`;
  const recorded = keyed ? '(select count(*) from record)' : '-1';
  const text = `with ${ctes.join(',\n')}
select w.applied, s.* from (select tally_write_settled((select count(*) from guard), ${recorded}) as applied) w
  left join lateral (${groupSnapshotSql(groupParam, 'w.applied = 0')}) s on true`;
  const statement = { name: `tally_write_${composed.size + 1}`, text };
  composed.set(key, statement);
  return statement;
}

/**
 * One change to one group: the unit of work of every write. It starts from a `GroupState` (the
 * group's row and snapshot at one `last_seq`), validates against it, stages the domain rows, the
 * balance deltas and the event, and becomes ONE statement (`statement`), sent in autocommit: the
 * group's row is locked only while that statement runs. The statement's guard bumps the group only
 * from the `last_seq` the change started from, so a change built on an out-of-date state (another
 * process wrote since) writes nothing and is run again on the current state.
 */
export class GroupChange {
  readonly group: GroupRow;
  readonly snapshot: GroupSnapshot;
  /** The `last_seq` the change builds on: its guard bumps the group only from there. */
  readonly startSeq: number;
  private readonly parts: { part: StatementPart; values: unknown[] }[] = [];
  private readonly deltas = new Map<string, BalanceDelta>();
  private readonly currencyChanges = new Map<string, number>();
  private event: { event: GroupEvent; at: Date } | undefined;
  /** Whether the change bumps the group's version (and so its `updated_at`). */
  private bumped = false;

  private constructor(
    state: GroupState,
    private readonly guard: StatementPart,
  ) {
    const copy = copyState(state);
    this.group = copy.group;
    this.snapshot = copy.snapshot;
    this.startSeq = Number(state.group.last_seq);
  }

  /**
   * A change to an existing group, by a caller who must be one of its members: 404 for a group
   * that does not exist and for a caller who is not a member alike.
   */
  static of(state: GroupState | undefined, userId: string, hidden: () => AppError): GroupChange {
    if (!state?.snapshot.memberIds.includes(userId)) throw hidden();
    return new GroupChange(state, GUARDS.bump);
  }

  /** A change that creates `group` with `creatorId` as its first member (the caller writes the membership). */
  static creating(group: GroupRow, creatorId: string): GroupChange {
    const snapshot: GroupSnapshot = {
      lastSeq: 0,
      memberIds: [creatorId],
      nets: new Map(),
      liveRecords: new Map(),
    };
    return new GroupChange({ group: { ...group, last_seq: 0, version: 1 }, snapshot }, GUARDS.create);
  }

  /** Stages a domain row's write (see `StatementPart`), with its values. */
  write(part: StatementPart, values: unknown[]): void {
    this.parts.push({ part, values });
  }

  isMember(userId: string): boolean {
    return this.snapshot.memberIds.includes(userId);
  }

  /**
   * Everyone whose balance a change touches must be a current member: that keeps a removed
   * member's net at zero, and it is what API.md means by `422 not_a_member`.
   */
  assertMembers(userIds: readonly string[]): void {
    const missing = [...new Set(userIds)].filter((id) => !this.isMember(id));
    if (missing.length > 0) {
      throw new AppError('not_a_member', 422, `Not a member of this group: ${missing.join(', ')}.`, {
        errors: missing.map((id) => ({ path: 'userId', message: `${id} is not a member of this group` })),
      });
    }
  }

  /** Stages balance deltas, and keeps the snapshot (the event's balances) in step. */
  applyDeltas(deltas: readonly BalanceDelta[]): void {
    for (const d of deltas) {
      const key = `${d.currency}\u0000${d.userId}`;
      const staged = this.deltas.get(key);
      this.deltas.set(key, { ...d, delta: (staged?.delta ?? 0) + d.delta });
      const perUser = this.snapshot.nets.get(d.currency) ?? new Map<string, number>();
      perUser.set(d.userId, (perUser.get(d.userId) ?? 0) + d.delta);
      this.snapshot.nets.set(d.currency, perUser);
    }
  }

  /** Counts a live record in (+1) or out (−1) of a currency. */
  countRecord(currency: string, by: 1 | -1): void {
    this.currencyChanges.set(currency, (this.currencyChanges.get(currency) ?? 0) + by);
    this.snapshot.liveRecords.set(currency, (this.snapshot.liveRecords.get(currency) ?? 0) + by);
  }

  /** Member-set changes the caller staged; keep the snapshot in step. */
  memberAdded(userId: string): void {
    this.snapshot.memberIds.push(userId);
  }
  memberRemoved(userId: string): void {
    this.snapshot.memberIds = this.snapshot.memberIds.filter((id) => id !== userId);
  }

  /** The group's name and description after the change (the guard writes them). */
  rename(fields: { name: string; description: string }): void {
    this.group.name = fields.name;
    this.group.description = fields.description;
  }

  netOf(userId: string): Map<string, number> {
    const result = new Map<string, number>();
    for (const [currency, perUser] of this.snapshot.nets) result.set(currency, perUser.get(userId) ?? 0);
    return result;
  }

  balances(): CurrencyBalances[] {
    return balancesOf(this.snapshot);
  }

  /**
   * The group's next event (one per change): it bumps `seq`, and `version` when asked. Money
   * events carry `data.balances`, the balances after the change.
   */
  commit(
    type: EventType,
    actorId: string,
    data: Record<string, unknown>,
    options: { withBalances?: boolean; bumpVersion?: boolean; at?: Date } = {},
  ): GroupEvent {
    if (this.event) throw new Error('a change appends exactly one event');
    const seq = this.startSeq + 1;
    const at = options.at ?? new Date();
    const event: GroupEvent = {
      id: newId('evt'),
      seq,
      type,
      groupId: this.group.id,
      actorId,
      occurredAt: at.toISOString(),
      data: options.withBalances ? { ...data, balances: this.balances() } : data,
    };
    this.group.last_seq = seq;
    this.snapshot.lastSeq = seq;
    if (options.bumpVersion) {
      this.group.version += 1;
      this.group.updated_at = at;
      this.bumped = true;
    }
    this.event = { event, at };
    return event;
  }

  /** True when the change writes something: it has its event. A change without one answered without writing. */
  get changed(): boolean {
    return this.event !== undefined;
  }

  /**
   * The change as one prepared statement, with the durable record's values (`durableRecordValues`)
   * when the request is keyed.
   */
  statement(record: unknown[] | undefined): PreparedStatement {
    const staged = this.event;
    if (!staged) throw new Error('a change without an event writes nothing');
    const { event, at } = staged;
    const { group } = this;
    const deltas = [...this.deltas.values()]
      .filter((d) => d.delta !== 0)
      .map((d) => ({ currency: d.currency, user_id: d.userId, delta: d.delta }));
    const currencies = [...this.currencyChanges]
      .filter(([, by]) => by !== 0)
      .map(([currency, by]) => ({ currency, by }));
    const values: unknown[] = [
      event.seq,
      group.version,
      group.name,
      group.description,
      this.bumped || this.guard === GUARDS.create ? group.updated_at : null,
      group.id,
      this.startSeq,
      ...(this.guard === GUARDS.create ? [group.currency] : []),
      ...this.parts.flatMap((p) => p.values),
      JSON.stringify(deltas),
      JSON.stringify(currencies),
      event.id,
      event.seq,
      event.type,
      event.actorId,
      at,
      JSON.stringify(event.data),
      ...(record ?? []),
      group.id,
    ];
    const { name, text } = compose(
      this.guard,
      this.parts.map((p) => p.part),
      record !== undefined,
    );
    return { name, text, values };
  }

  /** The group's state once the statement applied: the next change in this process builds on it. */
  after(): GroupState {
    return { group: this.group, snapshot: this.snapshot };
  }
}

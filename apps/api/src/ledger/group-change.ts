import { empty, join, raw, type Sql, sql } from '@tally/db';
import type { BalanceDelta, PairDelta } from '@tally/domain';
import type { EventType, GroupEvent } from '@tally/events';
import { AppError } from '@tally/http-kit';
import { type DurableRecord, storedPath } from '@tally/idempotency';
import { assertRoom } from '../bounds';
import type { NewId } from '../ids';
import type { GroupRow } from './group-access';
import {
  balancesOf,
  type CurrencyBalances,
  copyState,
  type GroupSnapshot,
  type GroupState,
  groupSnapshot,
} from './group-snapshot';

/** `409 group_archived` (API.md §3): what every write to an archived group gets. */
const groupArchived = () =>
  new AppError('group_archived', 409, 'This group is archived; unarchive it to change it.');

/**
 * The insert of a keyed write's durable idempotency record (migration 003), for a row of `source`:
 * `guard` in a change's statement, so that it writes only when the change does, or a one-row
 * relation for an outcome that changed nothing. It takes the place of an expired record. When a
 * live record holds the key it raises `TY001` (`tally_idempotency_replaceable`): the record's own
 * slot is checked here, the slots of a record written earlier (before a slot boundary) by the
 * claims its trigger writes (`idempotency_claims`). Either way the whole statement is undone,
 * nothing commits, and the caller replays the live record.
 */
export const durableRecordInsert = (record: DurableRecord, source: Sql): Sql => {
  const at = record.bodyInEvent;
  return sql`insert into idempotency_records (user_id, key, path, slot, fingerprint, status, headers, body,
                                  body_event_group, body_event_seq, body_event_at, body_event_field, created_at, expires_at)
   select ${record.userId}::text, ${record.key}::text, ${storedPath(record.path)}::text, tally_idempotency_slot(now()),
          ${record.fingerprint}::text, ${record.response.status}::integer, ${JSON.stringify(record.response.headers)}::jsonb,
          ${at ? null : record.response.body}::text, ${at?.groupId ?? null}::text, ${at?.seq ?? null}::bigint,
          ${at?.occurredAt ?? null}::timestamptz, ${at?.field ?? null}::text, now(), ${record.expiresAt}::timestamptz
     from ${source}
   on conflict (user_id, key, path, slot) do update
     set fingerprint = excluded.fingerprint, status = excluded.status, headers = excluded.headers,
         body = excluded.body, body_event_group = excluded.body_event_group, body_event_seq = excluded.body_event_seq,
         body_event_at = excluded.body_event_at, body_event_field = excluded.body_event_field,
         created_at = excluded.created_at, expires_at = excluded.expires_at
     where tally_idempotency_replaceable(idempotency_records.expires_at)
   returning 1`;
};

/**
 * `record`, pointing at the field of `event`'s data that is the reply's body, when there is one: the
 * body is then that field's text as the event stores it (`events.data` is `json`, kept as written,
 * and `JSON.stringify` of the data writes the field exactly as `JSON.stringify` of the body), so the
 * record does not copy it (migration 013). Otherwise `record` as it is.
 */
export function pointedAtEvent(record: DurableRecord, event: GroupEvent, at: Date): DurableRecord {
  const body = record.replyBody;
  if (body === null || typeof body !== 'object') return record;
  for (const [field, value] of Object.entries(event.data)) {
    if (value === body) {
      return { ...record, bodyInEvent: { groupId: event.groupId, seq: event.seq, occurredAt: at, field } };
    }
  }
  return record;
}

/** A user a change touches, and the path of the request (or record) field that names them. */
export type Party = { userId: string; path: string };

/**
 * One change to one group: the unit of work of every write. It starts from a `GroupState` (the
 * group's row and snapshot at one `last_seq`), validates against it, stages the domain rows, the
 * balance deltas and the event, and becomes ONE statement (`statement`), sent in autocommit: the
 * group's row is locked only while that statement runs. The statement's guard bumps the group only
 * from the `last_seq` the change started from, so a change built on an out-of-date state (another
 * process wrote since) writes nothing and is run again on the current state.
 *
 * A domain row's write (`write`) is an `Sql` fragment that takes effect only through `guard`, the
 * group's row as the guard bumped or inserted it (`… from guard`, `… using guard`), so that a change
 * whose snapshot is out of date writes nothing at all.
 */
export class GroupChange {
  readonly group: GroupRow;
  readonly snapshot: GroupSnapshot;
  /** The `last_seq` the change builds on: its guard bumps the group only from there. */
  readonly startSeq: number;
  private readonly parts: Sql[] = [];
  private readonly deltas = new Map<string, BalanceDelta>();
  private readonly pairs = new Map<string, PairDelta>();
  /** Whether the group was archived when the change began (see `commit`). */
  private readonly startedArchived: boolean;
  private readonly currencyChanges = new Map<string, number>();
  private event: { event: GroupEvent; at: Date } | undefined;
  /** Whether the change bumps the group's version (and so its `updated_at`). */
  private bumped = false;
  /**
   * The event of the change whose state this one builds on, when that change had not committed
   * yet as this one was decided (its statement still on its way, see `WriteRunner`): the guard then
   * also finds that event at `startSeq`, so that this change applies only after THAT change, never
   * after another one that took the same seq because that one failed.
   */
  private builtOn: { eventId: string; at: Date } | undefined;

  private constructor(
    state: GroupState,
    /** `bump` an existing group from `startSeq`, or `create` a new one. */
    private readonly guard: 'bump' | 'create',
    /** Makes the event's id. */
    private readonly newId: NewId,
    /** Whether the change may open an archived group: only to archive or unarchive it (`commit`). */
    archivedToo = false,
  ) {
    // The one gate of every write to an archived group (API.md §3): every change to an existing group
    // is made here, so no write gets past it; only `archiving` may open one, and then `commit`
    // refuses any change that leaves the group archived.
    if (state.group.archived_at && !archivedToo) throw groupArchived();
    const copy = copyState(state);
    this.group = copy.group;
    this.snapshot = copy.snapshot;
    this.startSeq = Number(state.group.last_seq);
    this.startedArchived = state.group.archived_at !== null && state.group.archived_at !== undefined;
  }

  /**
   * A change to an existing group, by a caller who must be one of its members: 404 for a group
   * that does not exist and for a caller who is not a member alike. `userId` null: a change the
   * server makes on its own (a recurring expense's occurrence), for no caller.
   */
  static of(
    state: GroupState | undefined,
    userId: string | null,
    hidden: () => AppError,
    newId: NewId,
  ): GroupChange {
    if (!state || (userId !== null && !state.snapshot.memberIds.includes(userId))) throw hidden();
    return new GroupChange(state, 'bump', newId);
  }

  /** A change that archives or unarchives the group (API.md §3), by a member: it may open an archived one. */
  static archiving(
    state: GroupState | undefined,
    userId: string,
    hidden: () => AppError,
    newId: NewId,
  ): GroupChange {
    if (!state?.snapshot.memberIds.includes(userId)) throw hidden();
    return new GroupChange(state, 'bump', newId, true);
  }

  /**
   * A change to an existing group by a caller who need not be a member: someone joining it (an
   * invite accepted, a pending member claimed). 404 for a group that does not exist.
   */
  static joining(state: GroupState | undefined, hidden: () => AppError, newId: NewId): GroupChange {
    if (!state) throw hidden();
    return new GroupChange(state, 'bump', newId);
  }

  /** A change that creates `group` with `creatorId` as its first member (the caller writes the membership). */
  static creating(group: GroupRow, creatorId: string, newId: NewId): GroupChange {
    const snapshot: GroupSnapshot = {
      lastSeq: 0,
      memberIds: [creatorId],
      aliases: new Map(),
      nets: new Map(),
      liveRecords: new Map(),
    };
    return new GroupChange({ group: { ...group, last_seq: 0, version: 1 }, snapshot }, 'create', newId);
  }

  /** Builds on the uncommitted change whose event is `event` (see `builtOn`). */
  buildsOn(event: { eventId: string; at: Date }): void {
    this.builtOn = event;
  }

  /** The change's event, once committed to it (`commit`): what a change built on this one names. */
  get staged(): { eventId: string; at: Date } | undefined {
    return this.event && { eventId: this.event.event.id, at: this.event.at };
  }

  /** Stages a domain row's write: a fragment reading `guard` (see the class comment). */
  write(part: Sql): void {
    this.parts.push(part);
  }

  isMember(userId: string): boolean {
    return this.snapshot.memberIds.includes(userId);
  }

  /**
   * Who `userId` is in this group now: the account that claimed them when they are a claimed
   * pending member (API.md §3.1), else themselves. Records keep naming the claimed id.
   */
  resolve(userId: string): string {
    return this.snapshot.aliases.get(userId) ?? userId;
  }

  /** Records that `accountId` took over the pending member `pendingId` (the caller writes the rows). */
  memberClaimed(pendingId: string, accountId: string): void {
    this.snapshot.aliases.set(pendingId, accountId);
    this.snapshot.memberIds = this.snapshot.memberIds.filter((id) => id !== pendingId);
    if (!this.snapshot.memberIds.includes(accountId)) this.snapshot.memberIds.push(accountId);
  }

  /**
   * Everyone whose balance a change touches must be a current member: that keeps a removed
   * member's net at zero, and it is what API.md means by `422 not_a_member`. Each party comes with
   * the path that names it (`paidBy`, `paidBy[1].userId`, `split.between[2].userId`, `fromUserId`),
   * and the problem has one entry per path of a non-member, in the order given.
   */
  assertMembers(parties: readonly Party[]): void {
    const seen = new Set<string>();
    const missing = parties.filter((p) => {
      if (this.isMember(this.resolve(p.userId)) || seen.has(p.path)) return false;
      seen.add(p.path);
      return true;
    });
    if (missing.length > 0) {
      const ids = [...new Set(missing.map((p) => p.userId))];
      throw new AppError('not_a_member', 422, `Not a member of this group: ${ids.join(', ')}.`, {
        errors: missing.map((p) => ({ path: p.path, message: `${p.userId} is not a member of this group` })),
      });
    }
  }

  /**
   * One person, one share (API.md §3.3): within one list of a request (the payers, the split), two
   * ids that are one member here (an account and a pending member it took over) are refused, as
   * the same id twice is, with `422 validation_failed` and the path of each later one. A list is
   * the parties whose paths share everything before the index (`paidBy[…]`, `split.between[…]`).
   * Stored records are not checked: what they name stays as it was when they were written.
   */
  assertOnePersonEach(parties: readonly Party[]): void {
    const firstOf = new Map<string, Party>();
    const errors: { path: string; message: string }[] = [];
    for (const party of parties) {
      const list = party.path.replace(/\[\d+\].*$/, '');
      const person = this.resolve(party.userId);
      const key = `${list}\u0000${person}`;
      const first = firstOf.get(key);
      if (!first) {
        firstOf.set(key, party);
        continue;
      }
      if (first.userId === party.userId) continue; // the same id twice: the domain's own check
      errors.push({
        path: party.path,
        message: `${party.userId} and ${first.userId} (${first.path}) are one member of this group (${person}): name them once`,
      });
    }
    if (errors.length > 0) {
      throw new AppError('validation_failed', 422, 'A member is named twice, by two of their ids.', {
        errors,
      });
    }
  }

  /**
   * Stages balance deltas, and keeps the snapshot (the event's balances) in step. A delta naming a
   * claimed pending member goes to the account that claimed them.
   */
  applyDeltas(deltas: readonly BalanceDelta[]): void {
    for (const named of deltas) {
      const d = { ...named, userId: this.resolve(named.userId) };
      const key = `${d.currency}\u0000${d.userId}`;
      const staged = this.deltas.get(key);
      this.deltas.set(key, { ...d, delta: (staged?.delta ?? 0) + d.delta });
      const perUser = this.snapshot.nets.get(d.currency) ?? new Map<string, number>();
      perUser.set(d.userId, (perUser.get(d.userId) ?? 0) + d.delta);
      this.snapshot.nets.set(d.currency, perUser);
    }
  }

  /**
   * Counts a live record in (+1) or out (−1) of a currency. A record in a currency the group has no
   * live record in is refused (`422 limit_exceeded`) when the group already has `currenciesPerGroup`
   * (API.md §9.1): count a record out before counting its replacement in.
   */
  countRecord(currency: string, by: 1 | -1): void {
    if (by === 1 && (this.snapshot.liveRecords.get(currency) ?? 0) <= 0) {
      const live = [...this.snapshot.liveRecords.values()].filter((n) => n > 0).length;
      assertRoom('currenciesPerGroup', live, `This group already has records in ${live} currencies`);
    }
    this.currencyChanges.set(currency, (this.currencyChanges.get(currency) ?? 0) + by);
    this.snapshot.liveRecords.set(currency, (this.snapshot.liveRecords.get(currency) ?? 0) + by);
  }

  /**
   * Member-set changes the caller staged; keep the snapshot in step. One member more than
   * `membersPerGroup` (API.md §9.1) is refused with `422 limit_exceeded`.
   */
  memberAdded(userId: string): void {
    const count = this.snapshot.memberIds.length;
    assertRoom('membersPerGroup', count, `This group has ${count} members`);
    this.snapshot.memberIds.push(userId);
  }
  memberRemoved(userId: string): void {
    this.snapshot.memberIds = this.snapshot.memberIds.filter((id) => id !== userId);
  }

  /** The group's own fields after the change (the guard writes them). */
  rename(
    fields: Partial<Pick<GroupRow, 'name' | 'description' | 'currency' | 'simplify_debts' | 'archived_at'>>,
  ): void {
    Object.assign(this.group, fields);
  }

  /**
   * Stages changes to the original (pairwise) debts (API.md §6), kept as the records name their
   * people: a claimed pending member is resolved to its account when they are read.
   */
  applyPairs(pairs: readonly PairDelta[]): void {
    for (const p of pairs) {
      const key = `${p.currency}\u0000${p.lowId}\u0000${p.highId}`;
      const staged = this.pairs.get(key);
      this.pairs.set(key, { ...p, net: (staged?.net ?? 0) + p.net });
    }
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
    // An archived group's change (`archiving`) commits only when it unarchives the group.
    if (this.startedArchived && this.group.archived_at) throw groupArchived();
    const seq = this.startSeq + 1;
    const at = options.at ?? new Date();
    const event: GroupEvent = {
      id: this.newId('evt'),
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
   * The change as ONE statement, each part a CTE: the guard, the domain rows, the balance deltas,
   * the live-record counts, the event and, for a keyed request, the durable idempotency `record`.
   * `tally_write_settled` (migration 002) then undoes the whole statement when the record's key
   * already had a live record (`TY001`). When the guard bumped nothing (another process wrote the
   * group first) nothing is written, and the statement's row carries the group's current snapshot
   * for the retry; a statement that applied reads no snapshot.
   */
  statement(record: DurableRecord | undefined): Sql {
    const staged = this.event;
    if (!staged) throw new Error('a change without an event writes nothing');
    const { event, at } = staged;
    const { group } = this;
    const deltas = [...this.deltas.values()]
      .filter((d) => d.delta !== 0)
      .map((d) => ({ currency: d.currency, user_id: d.userId, delta: d.delta }));
    const pairs = [...this.pairs.values()]
      .filter((p) => p.net !== 0)
      .map((p) => ({ currency: p.currency, low_id: p.lowId, high_id: p.highId, net: p.net }));
    const currencies = [...this.currencyChanges]
      .filter(([, by]) => by !== 0)
      .map(([currency, by]) => ({ currency, by }));
    const updatedAt = this.bumped || this.guard === 'create' ? group.updated_at : null;
    const guard =
      this.guard === 'create'
        ? sql`insert into groups (id, last_seq, version, name, description, updated_at, currency, created_at, simplify_debts)
              values (${group.id}::text, ${event.seq}::bigint, ${group.version}::integer, ${group.name}::text,
                      ${group.description}::text, ${updatedAt}::timestamptz, ${group.currency}::text, ${updatedAt}::timestamptz,
                      ${group.simplify_debts}::boolean)
              returning id`
        : sql`update groups set last_seq = ${event.seq}::bigint, version = ${group.version}::integer,
                                name = ${group.name}::text, description = ${group.description}::text,
                                currency = ${group.currency}::text, simplify_debts = ${group.simplify_debts}::boolean,
                                archived_at = ${group.archived_at}::timestamptz,
                                updated_at = coalesce(${updatedAt}::timestamptz, updated_at)
               where id = ${group.id}::text and last_seq = ${this.startSeq}::bigint${this.builtOnGuard()}
              returning id`;
    const ctes = [
      sql`guard as (${guard})`,
      ...this.parts.map((part, i) => sql`${raw(`d${i}`)} as (${part})`),
      sql`t_balances as (
        insert into balances (group_id, currency, user_id, net)
        select guard.id, x.currency, x.user_id, x.delta
          from guard, jsonb_to_recordset(${JSON.stringify(deltas)}::jsonb) as x(currency text, user_id text, delta bigint)
        on conflict (group_id, currency, user_id) do update set net = balances.net + excluded.net)`,
      sql`t_pairs as (
        insert into pair_balances (group_id, currency, low_id, high_id, net)
        select guard.id, x.currency, x.low_id, x.high_id, x.net
          from guard, jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as x(currency text, low_id text, high_id text, net bigint)
        on conflict (group_id, currency, low_id, high_id) do update set net = pair_balances.net + excluded.net)`,
      sql`t_currencies as (
        insert into group_currencies (group_id, currency, live_records)
        select guard.id, x.currency, x.by from guard, jsonb_to_recordset(${JSON.stringify(currencies)}::jsonb) as x(currency text, by integer)
        on conflict (group_id, currency)
        do update set live_records = group_currencies.live_records + excluded.live_records)`,
      sql`t_event as (
        insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
        select ${event.id}::text, guard.id, ${event.seq}::bigint, ${event.type}::text, ${event.actorId}::text,
               ${at}::timestamptz, ${JSON.stringify(event.data)}::json from guard)`,
      ...(record
        ? [sql`record as (${durableRecordInsert(pointedAtEvent(record, event, at), raw('guard'))})`]
        : []),
    ];
    const recorded = record ? raw('(select count(*) from record)') : raw('-1');
    return sql`with ${join(ctes, ',\n')}
select w.applied, s.* from (select tally_write_settled((select count(*) from guard), ${recorded}) as applied) w
  left join lateral (${groupSnapshot(sql`${group.id}::text`, raw('w.applied = 0'))}) s on true`;
  }

  /** The guard's test that the change this one builds on is the one at `startSeq` (one partition's index probe). */
  private builtOnGuard(): Sql {
    const on = this.builtOn;
    if (!on) return empty;
    return sql`
                 and exists (select 1 from events e where e.id = ${on.eventId}::text and e.occurred_at = ${on.at}::timestamptz
                                and e.group_id = ${this.group.id}::text and e.seq = ${this.startSeq}::bigint)`;
  }

  /** The group's state once the statement applied: the next change in this process builds on it. */
  after(): GroupState {
    return { group: this.group, snapshot: this.snapshot };
  }
}

import { type BalanceDelta, simplifyDebts, type Transfer } from '@tally/domain';
import type { EventType, GroupEvent } from '@tally/events';
import { AppError, notFound } from '@tally/http-kit';
import { DurableRecordExists, type SqlFragment } from '@tally/idempotency';
import type { Knex } from 'knex';
import { newId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupRow } from './group-access';

type Db = Knex | Knex.Transaction;

/** One currency of API.md §6's balances. */
export type CurrencyBalances = {
  currency: string;
  members: { userId: string; net: number }[];
  simplified: Transfer[];
};

/** Members, nets and live-record counts of one group, as one statement saw them. */
export type GroupSnapshot = {
  lastSeq: number;
  memberIds: string[];
  nets: Map<string, Map<string, number>>;
  liveRecords: Map<string, number>;
};

export type GroupSnapshotRow = {
  last_seq: number | string;
  member_ids: string[] | string;
  balances: [string, string, number | string][] | string;
  currencies: [string, number | string][] | string;
};

/**
 * A group's members, balances and currencies in ONE statement, so they are one consistent snapshot
 * without an explicit transaction, and in one round trip. Costs members × currencies, never the
 * length of the group's history. The statement, with `groupParam` as the group id's placeholder (`?` for knex,
 * `$1` for a prepared `pg` statement): the write path and the balances read share it.
 */
export const groupSnapshotSql = (groupParam: string): string =>
  `select g.last_seq,
       coalesce((select json_agg(m.user_id order by m.joined_at, m.user_id)
                   from group_members m where m.group_id = g.id), '[]') as member_ids,
       coalesce((select json_agg(json_build_array(b.currency, b.user_id, b.net))
                   from balances b where b.group_id = g.id and b.net <> 0), '[]') as balances,
       coalesce((select json_agg(json_build_array(c.currency, c.live_records) order by c.currency)
                   from group_currencies c where c.group_id = g.id and c.live_records > 0), '[]') as currencies
     from groups g where g.id = ${groupParam}`;

/** The snapshot of one row of `groupSnapshotSql`. */
export function toGroupSnapshot(row: GroupSnapshotRow): GroupSnapshot {
  const nets = new Map<string, Map<string, number>>();
  for (const [currency, userId, net] of jsonColumn(row.balances)) {
    const perUser = nets.get(currency) ?? new Map<string, number>();
    perUser.set(userId, Number(net));
    nets.set(currency, perUser);
  }
  return {
    lastSeq: Number(row.last_seq),
    memberIds: jsonColumn(row.member_ids),
    nets,
    liveRecords: new Map(jsonColumn(row.currencies).map(([currency, n]) => [currency, Number(n)])),
  };
}

/** Reads a group's snapshot (`groupSnapshotSql`) inside the caller's transaction. */
export async function readGroupSnapshot(db: Db, groupId: string): Promise<GroupSnapshot | undefined> {
  const result = await db.raw(groupSnapshotSql('?'), [groupId]);
  const row = (result as { rows: GroupSnapshotRow[] }).rows[0];
  return row && toGroupSnapshot(row);
}

/**
 * The balances of API.md §6 from a snapshot: every member in every currency that has live
 * records, plus any former member whose net is not zero, so the nets always add up to 0.
 */
export function balancesOf(snapshot: GroupSnapshot): CurrencyBalances[] {
  return [...snapshot.liveRecords.entries()]
    .filter(([, count]) => count > 0)
    .map(([currency]) => currency)
    .sort()
    .map((currency) => {
      const nets = new Map<string, number>(snapshot.memberIds.map((id) => [id, 0]));
      for (const [userId, net] of snapshot.nets.get(currency) ?? []) if (net !== 0) nets.set(userId, net);
      const members = [...nets].map(([userId, net]) => ({ userId, net }));
      return { currency, members, simplified: simplifyDebts(members) };
    });
}

/**
 * One change to one group, inside the caller's transaction. Opening it locks the group's row
 * (serialising writes per group, while other groups proceed), then reads the snapshot the change
 * builds on. Balance changes are staged in memory and written, with the group's next event, by
 * `commit` in a single statement: few round trips while the lock is held.
 */
/** The GroupWrite of each open transaction, so the write runner can flush what it staged. */
const openWrites = new WeakMap<Knex.Transaction, GroupWrite>();

/**
 * Runs what the transaction's GroupWrite staged, with `durable()` (the durable idempotency record's
 * insert, when the request is keyed) folded into the same statement. False when nothing was staged.
 * @throws DurableRecordExists when a live durable record already holds the key (roll back, replay)
 */
export async function flushGroupWrite(
  trx: Knex.Transaction,
  durable: () => SqlFragment | undefined,
): Promise<boolean> {
  const write = openWrites.get(trx);
  openWrites.delete(trx);
  return write ? write.flush(durable) : false;
}

type Staged = { sql: string; bindings: readonly unknown[] };

export class GroupWrite {
  private readonly deltas = new Map<string, BalanceDelta>();
  private readonly currencyChanges = new Map<string, number>();
  /** Domain row writes, run as CTEs of the final statement. */
  private readonly staged: Staged[] = [];
  private final: Staged | undefined;

  private constructor(
    readonly trx: Knex.Transaction,
    readonly group: GroupRow,
    readonly snapshot: GroupSnapshot,
  ) {}

  /** 404 for a group that does not exist and for a caller who is not a member alike. */
  static async open(trx: Knex.Transaction, groupId: string, userId: string): Promise<GroupWrite> {
    const group = await trx<GroupRow>('groups').where({ id: groupId }).forUpdate().first();
    // Read after the lock: in READ COMMITTED this statement sees every write committed before it.
    const snapshot = group ? await readGroupSnapshot(trx, groupId) : undefined;
    if (!group || !snapshot?.memberIds.includes(userId)) throw notFound('Group');
    const write = new GroupWrite(trx, group, snapshot);
    openWrites.set(trx, write);
    return write;
  }

  /**
   * Stages an insert or update of a domain row (an expense, a settlement): it runs with the
   * balances and the event in the final statement. It must not depend on another staged write.
   */
  stage(query: Knex.QueryBuilder): void {
    const { sql, bindings } = query.toSQL();
    this.staged.push({ sql, bindings });
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

  /** Stages balance deltas; they reach the database with `commit`. */
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

  /** Member-set changes the caller already wrote; keeps the in-memory snapshot in step. */
  memberAdded(userId: string): void {
    this.snapshot.memberIds.push(userId);
  }
  memberRemoved(userId: string): void {
    this.snapshot.memberIds = this.snapshot.memberIds.filter((id) => id !== userId);
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
   * Builds the group's next event and stages the statement that writes the balances and currency
   * counts, bumps `seq` (and `version` when asked) and appends the event; `flushGroupWrite` runs it.
   * Money events carry `data.balances`.
   */
  commit(
    type: EventType,
    actorId: string,
    data: Record<string, unknown>,
    options: { withBalances?: boolean; bumpVersion?: boolean; at?: Date } = {},
  ): GroupEvent {
    const seq = Number(this.group.last_seq) + 1;
    const now = options.at ?? new Date();
    const eventData = options.withBalances ? { ...data, balances: this.balances() } : data;
    const event: GroupEvent = {
      id: newId('evt'),
      seq,
      type,
      groupId: this.group.id,
      actorId,
      occurredAt: now.toISOString(),
      data: eventData,
    };
    const deltas = [...this.deltas.values()].filter((d) => d.delta !== 0);
    const currencies = [...this.currencyChanges].filter(([, by]) => by !== 0);
    const version = options.bumpVersion ? this.group.version + 1 : this.group.version;
    this.final = {
      sql: `b as (insert into balances (group_id, currency, user_id, net)
               select ?, x.currency, x.user_id, x.delta
                 from jsonb_to_recordset(?::jsonb) as x(currency text, user_id text, delta bigint)
               on conflict (group_id, currency, user_id) do update set net = balances.net + excluded.net),
         c as (insert into group_currencies (group_id, currency, live_records)
               select ?, x.currency, x.by from jsonb_to_recordset(?::jsonb) as x(currency text, by integer)
               on conflict (group_id, currency)
               do update set live_records = group_currencies.live_records + excluded.live_records),
         g as (update groups set last_seq = ?, version = ?, updated_at = case when ? then ? else updated_at end
               where id = ?)
       insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
       values (?, ?, ?, ?, ?, ?, ?::jsonb)`,
      bindings: [
        this.group.id,
        JSON.stringify(deltas.map((d) => ({ currency: d.currency, user_id: d.userId, delta: d.delta }))),
        this.group.id,
        JSON.stringify(currencies.map(([currency, by]) => ({ currency, by }))),
        seq,
        version,
        options.bumpVersion === true,
        now,
        this.group.id,
        event.id,
        this.group.id,
        seq,
        type,
        actorId,
        now,
        JSON.stringify(eventData),
      ],
    };
    this.group.last_seq = seq;
    this.group.version = version;
    this.deltas.clear();
    this.currencyChanges.clear();
    return event;
  }

  /** Runs the staged writes and the event (and the durable record) as one statement. */
  async flush(durable: () => SqlFragment | undefined): Promise<boolean> {
    if (this.staged.length === 0 && !this.final) return false;
    const record = durable();
    const ctes = this.staged.map((w, i) => ({ sql: `d${i} as (${w.sql})`, bindings: w.bindings }));
    if (record) ctes.push({ sql: `r as (${record.sql})`, bindings: record.bindings });
    const recorded = record ? '(select count(*) from r)' : '1';
    const final = this.final
      ? { sql: `${this.final.sql} returning ${recorded} as recorded`, bindings: this.final.bindings }
      : { sql: `select ${recorded} as recorded`, bindings: [] };
    // The final statement's own CTEs (b, c, g) follow the staged ones in one WITH list.
    const head = ctes.map((c) => c.sql).join(',\n');
    const sql = this.final
      ? `with ${head}${head ? ',\n' : ''}${final.sql}`
      : `${head ? `with ${head}\n` : ''}${final.sql}`;
    const bindings = [...ctes.flatMap((c) => c.bindings), ...final.bindings] as Knex.RawBinding[];
    const result = await this.trx.raw(sql, bindings);
    this.staged.length = 0;
    this.final = undefined;
    const row = (result as { rows: { recorded: number | string }[] }).rows[0];
    if (record && Number(row?.recorded ?? 0) === 0) throw new DurableRecordExists();
    return true;
  }
}

import { sql } from '@tally/db';
import {
  diffBalanceEffects,
  diffPairEffects,
  settlementBalanceEffect,
  settlementPairEffect,
} from '@tally/domain';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { pageOf } from '../http/cursor';
import type { NewId } from '../ids';
import type { GroupChange } from '../ledger/group-change';
import type { WriteContext, WriteResult } from '../ledger/write-runner';
import { openExisting } from '../open-record';
import { createRunRead, READS, readGroupPage, readNamed, timeIdAfter } from '../read-queries';

export type SettlementInput = {
  groupId: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
  currency?: string;
  note?: string;
};

export type Settlement = {
  id: string;
  groupId: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
  currency: string;
  note: string;
  createdBy: string;
  createdAt: string;
};

type SettlementRow = {
  id: string;
  group_id: string;
  from_user_id: string;
  to_user_id: string;
  amount: number | string;
  currency: string;
  note: string;
  created_by: string;
  created_at: Date | string;
  deleted_at: Date | string | null;
};

export const toSettlement = (row: SettlementRow): Settlement => ({
  id: row.id,
  groupId: row.group_id,
  fromUserId: row.from_user_id,
  toUserId: row.to_user_id,
  amount: Number(row.amount),
  currency: row.currency,
  note: row.note,
  createdBy: row.created_by,
  createdAt: toIso(row.created_at),
});

/** The settlement rows' writes, as parts of a change's one statement (`GroupChange.write`). */
const SETTLEMENT_WRITES = {
  insert: (s: Settlement, now: Date) =>
    sql`insert into settlements (id, group_id, from_user_id, to_user_id, amount, currency, note, created_by, created_at)
        select ${s.id}::text, guard.id, ${s.fromUserId}::text, ${s.toUserId}::text, ${s.amount}::bigint,
               ${s.currency}::text, ${s.note}::text, ${s.createdBy}::text, ${now}::timestamptz from guard`,
  remove: (id: string, now: Date) =>
    sql`update settlements set deleted_at = ${now}::timestamptz from guard where settlements.id = ${id}::text`,
};

/**
 * What a settlement's body must satisfy on its own: two different members. Checked before the
 * request's key is claimed (a 422 here records nothing).
 */
export function checkSettlementInput(input: Pick<SettlementInput, 'fromUserId' | 'toUserId'>): void {
  if (input.fromUserId === input.toUserId) {
    throw new AppError('validation_failed', 422, 'A member cannot settle with themselves.', {
      errors: [{ path: 'toUserId', message: 'must differ from fromUserId' }],
    });
  }
}

export function createSettlementsService(deps: { knex: Knex; newId: NewId }) {
  const { newId } = deps;
  const runRead = createRunRead(deps.knex);

  return {
    async create(
      ctx: WriteContext,
      userId: string,
      input: SettlementInput,
    ): Promise<WriteResult<Settlement>> {
      checkSettlementInput(input);
      const change = await ctx.open(input.groupId, userId);
      const { group } = change;
      change.assertMembers([
        { userId: input.fromUserId, path: 'fromUserId' },
        { userId: input.toUserId, path: 'toUserId' },
      ]);
      // Two ids of one member: an account and a pending member it took over (API.md §3.3).
      if (change.resolve(input.fromUserId) === change.resolve(input.toUserId)) {
        throw new AppError('validation_failed', 422, 'A member cannot settle with themselves.', {
          errors: [{ path: 'toUserId', message: 'is the same member as fromUserId' }],
        });
      }
      const now = new Date();
      const settlement: Settlement = {
        id: newId('stl'),
        groupId: group.id,
        fromUserId: input.fromUserId,
        toUserId: input.toUserId,
        amount: input.amount,
        currency: input.currency ?? group.currency,
        note: input.note ?? '',
        createdBy: userId,
        createdAt: now.toISOString(),
      };
      change.write(SETTLEMENT_WRITES.insert(settlement, now));
      change.applyDeltas(settlementBalanceEffect(settlement));
      change.applyPairs(settlementPairEffect(settlement));
      change.countRecord(settlement.currency, 1);
      const event = change.commit('settlement.created', userId, { settlement }, { withBalances: true });
      return { value: settlement, events: [event] };
    },

    /**
     * A settlement at a given id staged on `change` (an imported payment, API.md §6b): the same row,
     * balances and `settlement.created` event as `create`.
     */
    createImported(change: GroupChange, settlement: Settlement): WriteResult<Settlement> {
      const now = new Date();
      change.assertMembers([
        { userId: settlement.fromUserId, path: 'fromUserId' },
        { userId: settlement.toUserId, path: 'toUserId' },
      ]);
      change.write(SETTLEMENT_WRITES.insert(settlement, now));
      change.applyDeltas(settlementBalanceEffect(settlement));
      change.applyPairs(settlementPairEffect(settlement));
      change.countRecord(settlement.currency, 1);
      const event = change.commit(
        'settlement.created',
        settlement.createdBy,
        { settlement },
        { withBalances: true },
      );
      return { value: settlement, events: [event] };
    },

    /** Undo of a settlement; deleting one already deleted is the same 204. */
    async remove(ctx: WriteContext, userId: string, settlementId: string): Promise<WriteResult<void>> {
      // A settlement in a group the caller cannot see answers exactly like an unknown one.
      const { change, row } = await openExisting<SettlementRow>(ctx, 'settlements', settlementId, userId);
      if (row.deleted_at) return { value: undefined, events: [] };
      const settlement = toSettlement(row);
      const deltas = diffBalanceEffects(settlementBalanceEffect(settlement), []);
      change.assertMembers([
        { userId: settlement.fromUserId, path: 'fromUserId' },
        { userId: settlement.toUserId, path: 'toUserId' },
      ]);
      const now = new Date();
      change.write(SETTLEMENT_WRITES.remove(settlementId, now));
      change.applyDeltas(deltas);
      change.applyPairs(diffPairEffects(settlementPairEffect(settlement), []));
      change.countRecord(settlement.currency, -1);
      const event = change.commit(
        'settlement.deleted',
        userId,
        { settlement, deletedAt: now.toISOString() },
        { withBalances: true },
      );
      return { value: undefined, events: [event] };
    },

    /** One statement; a settlement in a group the caller is not in is as unknown as any other id. */
    async get(userId: string, settlementId: string): Promise<Settlement> {
      const [row] = await readNamed<SettlementRow>(runRead, READS.settlement(settlementId, userId));
      if (!row) throw notFound('Settlement');
      return toSettlement(row);
    },

    async list(userId: string, groupId: string, query: { limit: number; cursor?: string }) {
      const rows = await readGroupPage<SettlementRow>(
        runRead,
        READS.settlements,
        { groupId, userId, limit: query.limit + 1 },
        timeIdAfter(query.cursor, 'settlement'),
      );
      return pageOf(rows.map(toSettlement), query.limit, (s) => [s.createdAt, s.id]);
    },
  };
}

export type SettlementsService = ReturnType<typeof createSettlementsService>;

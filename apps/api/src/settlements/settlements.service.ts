import { diffBalanceEffects, settlementBalanceEffect } from '@tally/domain';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { pageOf } from '../http/cursor';
import { created, noContent, ok, type Reply } from '../http/reply';
import { newId } from '../ids';
import { GroupWrite } from '../ledger/group-write';
import type { WriteResult } from '../ledger/write-runner';
import { createRunRead, READS, readGroupPage, timeIdAfter } from '../read-queries';

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

const toSettlement = (row: SettlementRow): Settlement => ({
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

/**
 * A settlement in a group the caller cannot see answers exactly like an unknown settlement, so that
 * its id does not leak; any other failure (e.g. the database being down) passes through unchanged.
 */
const hideAsSettlement = (error: unknown): never => {
  throw error instanceof AppError && error.code === 'not_found' ? notFound('Settlement') : error;
};

export function createSettlementsService(deps: { knex: Knex }) {
  const runRead = createRunRead(deps.knex);

  return {
    async create(trx: Knex.Transaction, userId: string, input: SettlementInput): Promise<WriteResult> {
      if (input.fromUserId === input.toUserId) {
        throw new AppError('validation_failed', 422, 'A member cannot settle with themselves.', {
          errors: [{ path: 'toUserId', message: 'must differ from fromUserId' }],
        });
      }
      const write = await GroupWrite.open(trx, input.groupId, userId);
      const { group } = write;
      write.assertMembers([input.fromUserId, input.toUserId]);
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
      write.stage(
        trx('settlements').insert({
          id: settlement.id,
          group_id: group.id,
          from_user_id: settlement.fromUserId,
          to_user_id: settlement.toUserId,
          amount: settlement.amount,
          currency: settlement.currency,
          note: settlement.note,
          created_by: userId,
          created_at: now,
        }),
      );
      write.applyDeltas(settlementBalanceEffect(settlement));
      write.countRecord(settlement.currency, 1);
      const event = write.commit('settlement.created', userId, { settlement }, { withBalances: true });
      return {
        reply: created(settlement, { Location: `/v1/settlements/${settlement.id}` }),
        events: [event],
      };
    },

    /** Undo of a settlement; deleting one already deleted is the same 204. */
    async remove(trx: Knex.Transaction, userId: string, settlementId: string): Promise<WriteResult> {
      const found = await trx<SettlementRow>('settlements').where({ id: settlementId }).first('group_id');
      if (!found) throw notFound('Settlement');
      const write = await GroupWrite.open(trx, found.group_id, userId).catch(hideAsSettlement);
      const row = await trx<SettlementRow>('settlements').where({ id: settlementId }).first();
      if (!row) throw notFound('Settlement');
      if (row.deleted_at) return { reply: noContent(), events: [] };
      const settlement = toSettlement(row);
      const deltas = diffBalanceEffects(settlementBalanceEffect(settlement), []);
      write.assertMembers([settlement.fromUserId, settlement.toUserId]);
      const now = new Date();
      write.stage(trx('settlements').where({ id: settlementId }).update({ deleted_at: now }));
      write.applyDeltas(deltas);
      write.countRecord(settlement.currency, -1);
      const event = write.commit(
        'settlement.deleted',
        userId,
        { settlement, deletedAt: now.toISOString() },
        { withBalances: true },
      );
      return { reply: noContent(), events: [event] };
    },

    /** One statement; a settlement in a group the caller is not in is as unknown as any other id. */
    async get(userId: string, settlementId: string): Promise<Reply> {
      const [row] = await runRead<SettlementRow>(READS.settlement, [settlementId, userId]);
      if (!row) throw notFound('Settlement');
      return ok(toSettlement(row));
    },

    async list(userId: string, groupId: string, query: { limit: number; cursor?: string }) {
      const rows = await readGroupPage<SettlementRow>(
        runRead,
        READS.settlements,
        { groupId, userId, limit: query.limit + 1 },
        timeIdAfter(query.cursor),
      );
      return pageOf(rows.map(toSettlement), query.limit, (s) => [s.createdAt, s.id]);
    },
  };
}

export type SettlementsService = ReturnType<typeof createSettlementsService>;

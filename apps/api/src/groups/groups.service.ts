import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { decodeTimeIdCursor, pageOf } from '../http/cursor';
import { created, etagOf, ifMatchHolds, noContent, ok, type Reply } from '../http/reply';
import { newId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupRow } from '../ledger/group-access';
import { balancesOf, type GroupSnapshotRow, GroupWrite, toGroupSnapshot } from '../ledger/group-write';
import type { WriteResult } from '../ledger/write-runner';
import { createRunRead, READS } from '../read-queries';

export type Member = { userId: string; name: string; joinedAt: string };
export type Group = {
  id: string;
  name: string;
  description: string;
  currency: string;
  members: Member[];
  createdAt: string;
  updatedAt: string;
  version: number;
};

type Db = Knex | Knex.Transaction;

async function membersOf(db: Db, groupId: string): Promise<Member[]> {
  const rows = await db('group_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.group_id', groupId)
    .orderBy([
      { column: 'm.joined_at', order: 'asc' },
      { column: 'm.user_id', order: 'asc' },
    ])
    .select('m.user_id', 'u.name', 'm.joined_at');
  return rows.map((r: { user_id: string; name: string; joined_at: Date }) => ({
    userId: r.user_id,
    name: r.name,
    joinedAt: toIso(r.joined_at),
  }));
}

async function toGroup(db: Db, row: GroupRow): Promise<Group> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    currency: row.currency,
    members: await membersOf(db, row.id),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
  };
}

const groupHeaders = (group: Group) => ({ ETag: etagOf(group.version) });

/** A group row with its members, `[userId, name, joinedAt]` (see `READS.group`). */
type ListedGroupRow = GroupRow & { members: [string, string, string][] | string | null };

/** A group of `READS.groups`, whose members came in the same statement. */
const toListedGroup = (row: ListedGroupRow): Group => ({
  id: row.id,
  name: row.name,
  description: row.description,
  currency: row.currency,
  members: (jsonColumn(row.members) ?? []).map(([userId, name, joinedAt]) => ({
    userId,
    name,
    joinedAt: toIso(joinedAt),
  })),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
  version: row.version,
});

export function createGroupsService(deps: { knex: Knex }) {
  const runRead = createRunRead(deps.knex);

  return {
    async create(
      trx: Knex.Transaction,
      userId: string,
      input: { name: string; currency?: string; description?: string },
    ): Promise<WriteResult> {
      const now = new Date();
      const row: GroupRow = {
        id: newId('grp'),
        name: input.name,
        description: input.description ?? '',
        currency: input.currency ?? 'INR',
        last_seq: 0,
        version: 1,
        created_at: now,
        updated_at: now,
      };
      await trx('groups').insert(row);
      await trx('group_members').insert({ group_id: row.id, user_id: userId, joined_at: now });
      const write = await GroupWrite.open(trx, row.id, userId);
      const group = await toGroup(trx, write.group);
      const member = group.members[0];
      const event = write.commit('member.added', userId, { member });
      return {
        reply: created(group, { ...groupHeaders(group), Location: `/v1/groups/${group.id}` }),
        events: [event],
      };
    },

    /** One statement: the page of groups with their members. */
    async list(userId: string, query: { limit: number; cursor?: string }) {
      const after = decodeTimeIdCursor(query.cursor);
      const rows = after
        ? await runRead<ListedGroupRow & { member_since: Date }>(READS.groups.after, [
            userId,
            query.limit + 1,
            after.at,
            after.id,
          ])
        : await runRead<ListedGroupRow & { member_since: Date }>(READS.groups.first, [
            userId,
            query.limit + 1,
          ]);
      const page = pageOf(rows, query.limit, (r) => [toIso(r.member_since), r.id]);
      return { data: page.data.map(toListedGroup), nextCursor: page.nextCursor };
    },

    async get(userId: string, groupId: string): Promise<Reply> {
      const [row] = await runRead<ListedGroupRow>(READS.group, [groupId, userId]);
      if (!row) throw notFound('Group');
      const group = toListedGroup(row);
      return ok(group, groupHeaders(group));
    },

    async update(
      trx: Knex.Transaction,
      userId: string,
      groupId: string,
      input: { name?: string; description?: string },
      ifMatch: string | undefined,
    ): Promise<WriteResult> {
      const write = await GroupWrite.open(trx, groupId, userId);
      const row = write.group;
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) {
        throw new AppError('precondition_failed', 412, 'The group has changed since you read it.');
      }
      const changed =
        (input.name !== undefined && input.name !== row.name) ||
        (input.description !== undefined && input.description !== row.description);
      if (!changed) {
        const group = await toGroup(trx, row);
        return { reply: ok(group, groupHeaders(group)), events: [] };
      }
      const name = input.name ?? row.name;
      const description = input.description ?? row.description;
      await trx('groups').where({ id: groupId }).update({ name, description });
      const updatedAt = new Date();
      const group = await toGroup(trx, {
        ...row,
        name,
        description,
        version: row.version + 1,
        updated_at: updatedAt,
      });
      const { members: _members, ...withoutMembers } = group;
      const event = write.commit(
        'group.updated',
        userId,
        { group: withoutMembers },
        { bumpVersion: true, at: updatedAt },
      );
      return { reply: ok(group, groupHeaders(group)), events: [event] };
    },

    async addMember(
      trx: Knex.Transaction,
      userId: string,
      groupId: string,
      input: { userId?: string; email?: string },
    ): Promise<WriteResult> {
      const write = await GroupWrite.open(trx, groupId, userId);
      const user = await trx('users')
        .where(input.userId ? { id: input.userId } : { email_normalized: input.email })
        .first('id', 'name');
      if (!user) throw notFound('User');
      if (write.isMember(user.id)) {
        const existing = await trx('group_members').where({ group_id: groupId, user_id: user.id }).first();
        return {
          reply: ok({ userId: user.id, name: user.name, joinedAt: toIso(existing.joined_at) }),
          events: [],
        };
      }
      const joinedAt = new Date();
      await trx('group_members').insert({ group_id: groupId, user_id: user.id, joined_at: joinedAt });
      write.memberAdded(user.id);
      const member: Member = { userId: user.id, name: user.name, joinedAt: joinedAt.toISOString() };
      const event = write.commit('member.added', userId, { member }, { bumpVersion: true, at: joinedAt });
      return { reply: created(member), events: [event] };
    },

    async removeMember(
      trx: Knex.Transaction,
      userId: string,
      groupId: string,
      memberId: string,
    ): Promise<WriteResult> {
      const write = await GroupWrite.open(trx, groupId, userId);
      if (!write.isMember(memberId)) throw notFound('Member');
      if ([...write.netOf(memberId).values()].some((net) => net !== 0)) {
        throw new AppError(
          'member_has_balance',
          409,
          'This member still owes or is owed money in this group; settle up first.',
        );
      }
      await trx('group_members').where({ group_id: groupId, user_id: memberId }).delete();
      write.memberRemoved(memberId);
      const event = write.commit('member.removed', userId, { userId: memberId }, { bumpVersion: true });
      return { reply: noContent(), events: [event] };
    },

    async balances(userId: string, groupId: string): Promise<Reply> {
      // One statement, so `asOfSeq` is exactly the sequence the nets reflect; it has the members too.
      const [row] = await runRead<GroupSnapshotRow>(READS.snapshot, [groupId]);
      const snapshot = row && toGroupSnapshot(row);
      if (!snapshot?.memberIds.includes(userId)) throw notFound('Group');
      return ok({ groupId, asOfSeq: snapshot.lastSeq, currencies: balancesOf(snapshot) });
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;

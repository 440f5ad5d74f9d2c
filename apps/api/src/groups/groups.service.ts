import { raw, sql } from '@tally/db';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { assertRoom } from '../bounds';
import { toIso } from '../db-errors';
import { decodeTimeIdCursor, pageOf } from '../http/cursor';
import { etagOf, ifMatchHolds } from '../http/reply';
import type { NewId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupRow } from '../ledger/group-access';
import { type BalancesSnapshotRow, balancesFrom, type GroupBalances } from '../ledger/group-snapshot';
import { StaleState, type WriteContext, type WriteResult } from '../ledger/write-runner';
import { createRunRead, named, READS, readNamed } from '../read-queries';
import { addPendingMember } from './pending-members';

export type MemberStatus = 'active' | 'pending' | 'deleted';
/**
 * A member of a group: an account (`active`) or someone added by name (`pending`, API.md §3.1).
 * `claimed`, on an account's entry only when it took over pending members: their ids, which old
 * records still name.
 */
export type Member = {
  userId: string;
  name: string;
  joinedAt: string;
  status: MemberStatus;
  claimed?: string[];
};
export type Group = {
  id: string;
  name: string;
  description: string;
  currency: string;
  members: Member[];
  createdAt: string;
  updatedAt: string;
  version: number;
  /** When it was archived (API.md §3): it refuses every write meanwhile; `null` when it is not. */
  archivedAt: string | null;
  /** Which debts clients show: the simplified ones (`true`) or the original ones (API.md §6). */
  simplifyDebts: boolean;
};

/** What `PATCH /v1/groups/{groupId}` may change (API.md §3). */
export type GroupPatch = { name?: string; description?: string; currency?: string; simplifyDebts?: boolean };

/** A group row with its members, `[userId, name, joinedAt, status, claimed]` (see `READS.group`). */
export type ListedGroupRow = GroupRow & {
  members: [string, string, string, MemberStatus, string[] | null][] | string | null;
};

/** A group of `READS.groups`, whose members came in the same statement. */
export const toListedGroup = (row: ListedGroupRow): Group => ({
  id: row.id,
  name: row.name,
  description: row.description,
  currency: row.currency,
  members: (jsonColumn(row.members) ?? []).map(([userId, name, joinedAt, status, claimed]) => ({
    userId,
    name,
    joinedAt: toIso(joinedAt),
    status,
    ...(claimed && claimed.length > 0 ? { claimed } : {}),
  })),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
  version: row.version,
  archivedAt: row.archived_at ? toIso(row.archived_at) : null,
  simplifyDebts: row.simplify_debts,
});

/** The membership rows' writes, as parts of a change's one statement (`GroupChange.write`). */
export const MEMBER_WRITES = {
  add: (userId: string, joinedAt: Date) =>
    sql`insert into group_members (group_id, user_id, joined_at)
        select guard.id, ${userId}::text, ${joinedAt}::timestamptz from guard`,
  remove: (userId: string) =>
    sql`delete from group_members using guard
         where group_members.group_id = guard.id and group_members.user_id = ${userId}::text`,
};

/** How many groups account `u` is a member of (`groupsPerUser`, API.md §9.1): an index-only count. */
const GROUPS_OF_U = raw('(select count(*) from group_members g where g.user_id = u.id) as groups');

/**
 * A user to add (by id or by email), how many groups they are in and, when they are in this one
 * already, since when.
 */
const userToAdd = (by: 'id' | 'email_normalized', idOrEmail: string, groupId: string) =>
  named(
    `write_user_by_${by}`,
    sql`select u.id, u.name, m.joined_at, ${GROUPS_OF_U},
               (select json_agg(c.user_id order by c.joined_at, c.user_id) from group_members c
                 where c.group_id = ${groupId} and c.claimed_by = u.id) as claimed
          from users u
          left join group_members m on m.group_id = ${groupId} and m.user_id = u.id
         where u.${raw(by)} = ${idOrEmail} and u.status = 'active'`,
  );

/** An account's name and how many groups it is in (the creator of a group, one joining by an invite). */
export const accountName = (userId: string) =>
  named('write_user_name', sql`select u.name, ${GROUPS_OF_U} from users u where u.id = ${userId}`);

/**
 * `422 limit_exceeded` when the account `userId`, in `groups` groups now, may not join one more
 * (`groupsPerUser`). Counted when the write is decided: two joins of one account racing each other
 * in different groups may both pass (by at most the writes in flight).
 */
export function assertGroupRoom(userId: string, groups: number | string, callerId: string): void {
  const count = Number(groups);
  assertRoom(
    'groupsPerUser',
    count,
    userId === callerId ? `You are in ${count} groups already` : `${userId} is in ${count} groups already`,
  );
}

/**
 * The live invites (neither revoked nor expired) a member made in a group, with the group's
 * `last_seq` they were read at.
 */
const liveInvitesBy = (groupId: string, memberId: string) =>
  named(
    'write_live_invites_by',
    sql`select g.last_seq,
               (select json_agg(i.id order by i.created_at, i.id) from invites i
                 where i.group_id = g.id and i.created_by = ${memberId} and i.revoked_at is null
                   and i.expires_at > now()) as ids
          from groups g where g.id = ${groupId}`,
  );

/** The group's own fields a `group.updated` change may set. */
type GroupFields = Pick<GroupRow, 'name' | 'description' | 'currency' | 'simplify_debts' | 'archived_at'>;
const GROUP_FIELDS = ['name', 'description', 'currency', 'simplify_debts', 'archived_at'] as const;

/**
 * One `group.updated` change (API.md §3): `If-Match`, then the fields `next` sets, from the group's
 * row and the change's time; a no-op `200` when they change nothing. The archive gate is the
 * change's own (`GroupChange`): only `archiving` opens an archived group, to unarchive it.
 */
async function changeGroup(
  ctx: WriteContext,
  userId: string,
  groupId: string,
  ifMatch: string | undefined,
  next: (row: GroupRow, at: Date) => Partial<GroupFields>,
  archiving = false,
): Promise<WriteResult<Group>> {
  const change = archiving ? await ctx.openArchiving(groupId, userId) : await ctx.open(groupId, userId);
  const row = change.group;
  if (!ifMatchHolds(ifMatch, etagOf(row.version))) {
    throw new AppError('precondition_failed', 412, 'The group has changed since you read it.');
  }
  // The members (with their names) for the answer; the change's guard vouches for the rest.
  const [read] = await readNamed<ListedGroupRow>(ctx.read, READS.group(groupId, userId));
  if (!read || Number(read.last_seq) !== Number(row.last_seq)) throw new StaleState();
  const current = toListedGroup(read);
  const updatedAt = new Date();
  const fields = next(row, updatedAt);
  if (GROUP_FIELDS.every((f) => !(f in fields) || fields[f] === row[f])) {
    return { value: current, events: [] };
  }
  change.rename(fields);
  const after = { ...read, ...change.group, members: read.members };
  const group: Group = {
    ...toListedGroup(after),
    version: row.version + 1,
    updatedAt: updatedAt.toISOString(),
  };
  const { members: _members, ...withoutMembers } = group;
  const event = change.commit(
    'group.updated',
    userId,
    { group: withoutMembers },
    { bumpVersion: true, at: updatedAt },
  );
  return { value: group, events: [event] };
}

export function createGroupsService(deps: { knex: Knex; newId: NewId }) {
  const { newId } = deps;
  const runRead = createRunRead(deps.knex);

  return {
    async create(
      ctx: WriteContext,
      userId: string,
      input: { name: string; currency?: string; description?: string; simplifyDebts?: boolean },
    ): Promise<WriteResult<Group>> {
      const [user] = await readNamed<{ name: string; groups: number | string }>(
        ctx.read,
        accountName(userId),
      );
      if (!user) throw notFound('User');
      assertGroupRoom(userId, user.groups, userId);
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
        archived_at: null,
        simplify_debts: input.simplifyDebts ?? true,
      };
      const change = ctx.create(row, userId);
      change.write(MEMBER_WRITES.add(userId, now));
      const member: Member = { userId, name: user.name, joinedAt: now.toISOString(), status: 'active' };
      const group: Group = {
        id: row.id,
        name: row.name,
        description: row.description,
        currency: row.currency,
        members: [member],
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
        version: 1,
        archivedAt: null,
        simplifyDebts: row.simplify_debts,
      };
      const event = change.commit('member.added', userId, { member }, { at: now });
      return { value: group, events: [event] };
    },

    /** One statement: the page of groups with their members. */
    async list(userId: string, query: { limit: number; cursor?: string; archived?: boolean }) {
      const after = decodeTimeIdCursor(query.cursor, 'group');
      const rows = await readNamed<ListedGroupRow & { member_since: Date }>(
        runRead,
        READS.groups(userId, query.limit + 1, after, query.archived),
      );
      const page = pageOf(rows, query.limit, (r) => [toIso(r.member_since), r.id]);
      return { data: page.data.map(toListedGroup), nextCursor: page.nextCursor };
    },

    async get(userId: string, groupId: string): Promise<Group> {
      const [row] = await readNamed<ListedGroupRow>(runRead, READS.group(groupId, userId));
      if (!row) throw notFound('Group');
      return toListedGroup(row);
    },

    async update(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      input: GroupPatch,
      ifMatch: string | undefined,
    ): Promise<WriteResult<Group>> {
      return changeGroup(ctx, userId, groupId, ifMatch, (row) => ({
        name: input.name ?? row.name,
        description: input.description ?? row.description,
        currency: input.currency ?? row.currency,
        simplify_debts: input.simplifyDebts ?? row.simplify_debts,
      }));
    },

    /**
     * Archives (`at`) or unarchives (`null`) the group (API.md §3): a no-op when it already is.
     * Archiving keeps when it was first archived.
     */
    async setArchived(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      archived: boolean,
      ifMatch: string | undefined,
    ): Promise<WriteResult<Group>> {
      return changeGroup(
        ctx,
        userId,
        groupId,
        ifMatch,
        (row, at) => ({ archived_at: archived ? (row.archived_at ?? at) : null }),
        true,
      );
    },

    async addMember(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      input: { userId?: string; email?: string; name?: string },
    ): Promise<WriteResult<{ member: Member; added: boolean }>> {
      const change = await ctx.open(groupId, userId);
      if (input.name !== undefined) return addPendingMember(change, newId, userId, input.name, input.email);
      const [user] = await readNamed<{
        id: string;
        name: string;
        joined_at: Date | string | null;
        groups: number | string;
        claimed: string[] | string | null;
      }>(
        ctx.read,
        input.userId
          ? userToAdd('id', input.userId, groupId)
          : userToAdd('email_normalized', input.email ?? '', groupId),
      );
      if (!user) throw notFound('User');
      // The read and the change's state disagree on the membership: the state is out of date.
      if (change.isMember(user.id) !== (user.joined_at !== null)) throw new StaleState();
      // Pending members this account took over here before (it left and is back): still its own.
      const claimed = jsonColumn(user.claimed) ?? [];
      if (user.joined_at !== null) {
        const member: Member = {
          userId: user.id,
          name: user.name,
          joinedAt: toIso(user.joined_at),
          status: 'active',
          ...(claimed.length > 0 ? { claimed } : {}),
        };
        return { value: { member, added: false }, events: [] };
      }
      assertGroupRoom(user.id, user.groups, userId);
      const joinedAt = new Date();
      change.write(MEMBER_WRITES.add(user.id, joinedAt));
      change.memberAdded(user.id);
      const member: Member = {
        userId: user.id,
        name: user.name,
        joinedAt: joinedAt.toISOString(),
        status: 'active',
        ...(claimed.length > 0 ? { claimed } : {}),
      };
      const event = change.commit('member.added', userId, { member }, { bumpVersion: true, at: joinedAt });
      return { value: { member, added: true }, events: [event] };
    },

    async removeMember(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      memberId: string,
    ): Promise<WriteResult<void>> {
      const change = await ctx.open(groupId, userId);
      if (!change.isMember(memberId)) throw notFound('Member');
      if ([...change.netOf(memberId).values()].some((net) => net !== 0)) {
        throw new AppError(
          'member_has_balance',
          409,
          'This member still owes or is owed money in this group; settle up first.',
        );
      }
      // The invites they made stop working with their membership (API.md §3.2): otherwise a removed
      // member could come back at once by their own link. Only group changes write invites: read
      // at the change's own `last_seq`, the live ones are exactly those of the change's state.
      const [read] = await readNamed<{ last_seq: number | string; ids: string[] | string | null }>(
        ctx.read,
        liveInvitesBy(groupId, memberId),
      );
      if (!read || Number(read.last_seq) !== change.startSeq) throw new StaleState();
      const revoked = jsonColumn(read.ids) ?? [];
      const at = new Date();
      change.write(MEMBER_WRITES.remove(memberId));
      if (revoked.length > 0) {
        change.write(
          sql`update invites set revoked_at = ${at}::timestamptz from guard
               where invites.group_id = guard.id and invites.revoked_at is null
                 and invites.id in (select jsonb_array_elements_text(${JSON.stringify(revoked)}::jsonb))`,
        );
      }
      change.memberRemoved(memberId);
      const event = change.commit(
        'member.removed',
        userId,
        { userId: memberId, ...(revoked.length > 0 ? { revokedInvites: revoked } : {}) },
        { bumpVersion: true, at },
      );
      return { value: undefined, events: [event] };
    },

    /** `db`: where the request's reads go (read-routing.ts); the primary by default. */
    async balances(userId: string, groupId: string, db: Knex = deps.knex): Promise<GroupBalances> {
      // One statement, so `asOfSeq` is exactly the sequence the nets (and pairs) reflect; it has the
      // members too.
      const [row] = await readNamed<BalancesSnapshotRow>(createRunRead(db), READS.balances(groupId));
      const balances = balancesFrom(row, userId);
      if (!balances) throw notFound('Group');
      return balances;
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;

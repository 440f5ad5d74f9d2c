import { randomBytes } from 'node:crypto';
import { sql } from '@tally/db';
import type { BalanceDelta } from '@tally/domain';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { assertRoom } from '../bounds';
import { toIso } from '../db-errors';
import type { NewId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupChange } from '../ledger/group-change';
import { StaleState, type WriteContext, type WriteResult } from '../ledger/write-runner';
import { createRunRead, membersOfG, named, readNamed } from '../read-queries';
import { sha256Hex } from '../sha256';
import {
  accountName,
  assertGroupRoom,
  type Group,
  type ListedGroupRow,
  MEMBER_WRITES,
  type Member,
  toListedGroup,
} from './groups.service';

/** An invite link to a group (API.md §3.2), as listed: never its code. */
export type Invite = { id: string; groupId: string; createdBy: string; createdAt: string; expiresAt: string };
/** An invite just made: the only answer that ever carries its code. */
export type CreatedInvite = Invite & { code: string };
/** What an app shows before accepting an invite. */
export type InvitePreview = {
  groupId: string;
  groupName: string;
  memberCount: number;
  /** Pending members the caller may become by accepting with `asMember` (API.md §3.3). */
  pendingMembers: { userId: string; name: string }[];
  expiresAt: string;
  /** Whether the caller is a member already. */
  isMember: boolean;
};
/** A pending member the caller may claim by email, and its group. */
export type ClaimableMember = { groupId: string; groupName: string; memberId: string; name: string };
/** A join or a claim: the group after it, and whether the caller became a member by it. */
export type Joined = { group: Group; added: boolean };

/** Invites live 7 days unless asked otherwise (1–30). */
export const DEFAULT_INVITE_DAYS = 7;
const DAY_MS = 86_400_000;

/** 32 random bytes, base64url: 43 characters. Anything else cannot be a code and is not looked up. */
const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type InviteRow = {
  id: string;
  group_id: string;
  created_by: string;
  created_at: Date | string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
};
const toInvite = (row: InviteRow): Invite => ({
  id: row.id,
  groupId: row.group_id,
  createdBy: row.created_by,
  createdAt: toIso(row.created_at),
  expiresAt: toIso(row.expires_at),
});

const READS = {
  /** A live invite by its code's hash. */
  liveInvite: (codeHash: string) =>
    named(
      'invite_live',
      sql`select i.* from invites i where i.code_hash = ${codeHash} and i.revoked_at is null and i.expires_at > now()`,
    ),
  /** An invite of a group, live or not. */
  invite: (inviteId: string, groupId: string) =>
    named(
      'invite_by_id',
      sql`select i.* from invites i where i.id = ${inviteId} and i.group_id = ${groupId}`,
    ),
  /** A group with its members, whoever asks (the write's own rules decide). */
  group: (groupId: string) =>
    named('invite_group', sql`select g.*, ${membersOfG} from groups g where g.id = ${groupId}`),
  /**
   * What decides a claim: the pending user, and the claimant's login email and whether it is
   * verified (API.md §2.5).
   */
  claim: (pendingId: string, accountId: string) =>
    named(
      'invite_claim_check',
      sql`select p.status, p.pending_group_id, p.pending_email_normalized,
                 (select a.email_normalized from users a where a.id = ${accountId}) as account_email,
                 coalesce((select a.email_verified_at is not null from users a where a.id = ${accountId}), false)
                   as account_verified
            from users p where p.id = ${pendingId}`,
    ),
  /** The account's name and how many groups it is in (`groupsPerUser`). */
  accountName,
  /**
   * The group's live invites (`invitesPerGroup`), with the `last_seq` the count is of. Served by
   * `invites_group_unrevoked_idx` (migration 019).
   */
  liveCount: (groupId: string) =>
    named(
      'invite_live_count',
      sql`select g.last_seq, (select count(*) from invites i where i.group_id = g.id and i.revoked_at is null
                                                         and i.expires_at > now()) as live
            from groups g where g.id = ${groupId}`,
    ),
  /** A group's live invites (the 100 newest), with the caller's membership. */
  list: (groupId: string, userId: string) =>
    named(
      'invite_list',
      sql`select a.member, i.* from
            (select exists (select 1 from group_members m where m.group_id = ${groupId} and m.user_id = ${userId}) as member) a
            left join lateral (select * from invites where group_id = ${groupId} and revoked_at is null and expires_at > now()
                               order by created_at desc, id desc limit 100) i on a.member`,
    ),
  /**
   * Unclaimed pending members, still in their group, added with the caller's login email once it
   * is verified (what the caller may claim by email), oldest first.
   */
  claimable: (userId: string) =>
    named(
      'invite_claimable',
      sql`select m.group_id, g.name as group_name, p.id as member_id, p.name
            from users a
            join users p on p.pending_email_normalized = a.email_normalized and p.status = 'pending'
            join group_members m on m.group_id = p.pending_group_id and m.user_id = p.id and m.claimed_by is null
            join groups g on g.id = m.group_id
           where a.id = ${userId} and a.email_verified_at is not null
           order by m.joined_at, p.id
           limit 100`,
    ),
  /**
   * An invite's preview. Its pending members are those the caller may become (`checkMayClaim`): one
   * added with the caller's verified email, and, for a caller who is not a member, one added by
   * name only.
   */
  preview: (codeHash: string, userId: string) =>
    named(
      'invite_preview',
      sql`select x.*,
                 (select json_agg(json_build_array(u.id, u.name) order by m.joined_at, m.user_id)
                    from group_members m join users u on u.id = m.user_id
                   where m.group_id = x.group_id and m.claimed_by is null and u.status = 'pending'
                     and (u.pending_email_normalized = x.verified_email
                          or (u.pending_email_normalized is null and not x.is_member))) as pending
            from (select i.group_id, i.expires_at, g.name as group_name,
                         (select count(*) from group_members m where m.group_id = g.id and m.claimed_by is null) as member_count,
                         exists (select 1 from group_members m where m.group_id = g.id and m.user_id = ${userId}) as is_member,
                         (select a.email_normalized from users a where a.id = ${userId} and a.email_verified_at is not null) as verified_email
                    from invites i join groups g on g.id = i.group_id
                   where i.code_hash = ${codeHash} and i.revoked_at is null and i.expires_at > now()) x`,
    ),
};

const unknownInvite = () => notFound('Invite');
const unknownMember = () => notFound('Member');

/** What decides whether an account may take over a pending member (`READS.claim`). */
type ClaimCheck = {
  status: string;
  pending_group_id: string | null;
  pending_email_normalized: string | null;
  account_email: string | null;
  account_verified: boolean;
};

/**
 * The rule of API.md §3.3, so that no claim moves money between two people: a pending member
 * added with an email is the place of whoever proves that address (the account whose login email
 * it is, verified), member or not; one added by name only is a place for someone joining through
 * an invite, never a second place for a member. `via`: the claim endpoint (`email`), where anything
 * the caller may not claim stays hidden (`404`), or an invite's `asMember`, whose preview showed the
 * member (`403 forbidden`, saying why).
 */
function checkMayClaim(row: ClaimCheck, via: 'invite' | 'email', isMember: boolean): void {
  if (row.pending_email_normalized !== null) {
    if (row.pending_email_normalized !== row.account_email) {
      if (via === 'email') throw unknownMember();
      throw new AppError(
        'forbidden',
        403,
        'This member was added with an email address: only the account with that address, verified, can take over their place.',
      );
    }
    if (!row.account_verified) {
      throw new AppError(
        'forbidden',
        403,
        'Confirm your email address first (the link mailed to it; POST /v1/me/email/verification sends a new one): only a verified address takes over the member added with it.',
      );
    }
    return;
  }
  if (via === 'email') throw unknownMember();
  if (isMember) {
    throw new AppError(
      'forbidden',
      403,
      'You are a member of this group already: a place kept for someone is taken over by someone joining, never merged with a member.',
    );
  }
}

/** The code of a path, or the 404 of an unknown code without asking the database. */
function checkedCode(code: string): string {
  if (!CODE_PATTERN.test(code)) throw unknownInvite();
  return code;
}

/**
 * Invite links and claims of pending members (API.md §3.1–§3.3). Joining and claiming are changes
 * to the group like any other: one statement with the guard, the rows, the balances moved and the
 * event, so a second claim of one member, in any process, is decided on the state the first left.
 */
export function createInvitesService(deps: { knex: Knex; newId: NewId }) {
  const { newId } = deps;
  const runRead = createRunRead(deps.knex);

  /** The group as the change found it (the read must be of the change's own `last_seq`). */
  async function groupOf(ctx: WriteContext, change: GroupChange): Promise<Group> {
    const [row] = await readNamed<ListedGroupRow>(ctx.read, READS.group(change.group.id));
    if (!row) throw notFound('Group');
    if (Number(row.last_seq) !== change.startSeq) throw new StaleState();
    return toListedGroup(row);
  }

  /** The group's fields after a change that bumped its version. */
  const bumped = (group: Group, change: GroupChange, members: Member[]): Group => ({
    ...group,
    members,
    version: change.group.version,
    updatedAt: toIso(change.group.updated_at),
  });

  /** Adds `accountId` to the group (nothing when they are in it already). */
  async function join(ctx: WriteContext, accountId: string, groupId: string): Promise<WriteResult<Joined>> {
    const change = await ctx.openJoining(groupId);
    const group = await groupOf(ctx, change);
    if (change.isMember(accountId)) return { value: { group, added: false }, events: [] };
    const [account] = await readNamed<{ name: string; groups: number | string }>(
      ctx.read,
      READS.accountName(accountId),
    );
    if (!account) throw notFound('User');
    assertGroupRoom(accountId, account.groups, accountId);
    const at = new Date();
    change.write(MEMBER_WRITES.add(accountId, at));
    change.memberAdded(accountId);
    const member: Member = {
      userId: accountId,
      name: account.name,
      joinedAt: at.toISOString(),
      status: 'active',
    };
    const event = change.commit('member.added', accountId, { member }, { bumpVersion: true, at });
    return {
      value: { group: bumped(group, change, [...group.members, member]), added: true },
      events: [event],
    };
  }

  /**
   * `accountId` takes over the pending member `pendingId` if `checkMayClaim` lets it (decided on
   * the change's state: whether the account is a member is the snapshot's, which the guard vouches
   * for): the membership row gets `claimed_by` (only where no one claimed it: the snapshot said so),
   * the account becomes a member unless it is one already (then the two merge: only the owner of
   * the address the member was added with gets there), and the pending member's nets move onto the
   * account. Nothing else is rewritten: expenses, settlements and events keep naming `pendingId`,
   * which the group resolves to the account.
   */
  async function claim(
    ctx: WriteContext,
    accountId: string,
    groupId: string,
    pendingId: string,
    check: ClaimCheck,
    via: 'invite' | 'email',
  ): Promise<WriteResult<Joined>> {
    const change = await ctx.openJoining(groupId);
    const group = await groupOf(ctx, change);
    const claimedBy = change.snapshot.aliases.get(pendingId);
    if (claimedBy === accountId) return { value: { group, added: false }, events: [] };
    if (claimedBy !== undefined) {
      throw new AppError('member_claimed', 409, 'Someone else has already claimed this member.');
    }
    const pending = group.members.find((m) => m.userId === pendingId && m.status === 'pending');
    if (!pending) throw unknownMember();
    const wasMember = change.isMember(accountId);
    checkMayClaim(check, via, wasMember);
    const at = new Date();
    change.write(
      sql`update group_members set claimed_by = ${accountId}::text from guard
           where group_members.group_id = guard.id and group_members.user_id = ${pendingId}::text
             and group_members.claimed_by is null`,
    );
    let account = group.members.find((m) => m.userId === accountId);
    if (!wasMember || !account) {
      const [row] = await readNamed<{ name: string; groups: number | string }>(
        ctx.read,
        READS.accountName(accountId),
      );
      if (!row) throw notFound('User');
      assertGroupRoom(accountId, row.groups, accountId);
      change.write(MEMBER_WRITES.add(accountId, at));
      account = { userId: accountId, name: row.name, joinedAt: at.toISOString(), status: 'active' };
    }
    // Balances are derived state: the pending member's nets become the account's.
    const moves: BalanceDelta[] = [];
    for (const [currency, net] of change.netOf(pendingId)) {
      if (net === 0) continue;
      moves.push({ currency, userId: pendingId, delta: -net }, { currency, userId: accountId, delta: net });
    }
    change.applyDeltas(moves);
    change.memberClaimed(pendingId, accountId);
    const member: Member = { ...account, claimed: [...(account.claimed ?? []), pendingId] };
    const members = group.members.filter((m) => m.userId !== pendingId && m.userId !== accountId);
    members.push(member);
    members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.userId.localeCompare(b.userId));
    const event = change.commit(
      'member.claimed',
      accountId,
      { memberId: pendingId, userId: accountId, member },
      { withBalances: true, bumpVersion: true, at },
    );
    return { value: { group: bumped(group, change, members), added: !wasMember }, events: [event] };
  }

  /** Whether `pendingId` is a pending member created by `groupId`, and what decides a claim of it. */
  async function pendingOf(
    ctx: WriteContext,
    pendingId: string,
    accountId: string,
    groupId: string,
  ): Promise<ClaimCheck> {
    const [row] = await readNamed<ClaimCheck>(ctx.read, READS.claim(pendingId, accountId));
    if (row?.status !== 'pending' || row.pending_group_id !== groupId) throw unknownMember();
    return row;
  }

  return {
    async create(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      input: { expiresInDays?: number },
    ): Promise<WriteResult<CreatedInvite>> {
      const change = await ctx.open(groupId, userId);
      // Counted at the change's own seq, so two creates cannot both take the last place.
      const [count] = await readNamed<{ last_seq: number | string; live: number | string }>(
        ctx.read,
        READS.liveCount(groupId),
      );
      if (!count || Number(count.last_seq) !== change.startSeq) throw new StaleState();
      assertRoom('invitesPerGroup', Number(count.live), `This group has ${count.live} live invites`);
      const code = randomBytes(32).toString('base64url');
      const at = new Date();
      const expiresAt = new Date(at.getTime() + (input.expiresInDays ?? DEFAULT_INVITE_DAYS) * DAY_MS);
      const invite: Invite = {
        id: newId('inv'),
        groupId,
        createdBy: userId,
        createdAt: at.toISOString(),
        expiresAt: expiresAt.toISOString(),
      };
      change.write(
        sql`insert into invites (id, group_id, code_hash, created_by, created_at, expires_at)
            select ${invite.id}::text, guard.id, ${sha256Hex(code)}::text, ${userId}::text, ${at}::timestamptz,
                   ${expiresAt}::timestamptz from guard`,
      );
      const event = change.commit('invite.created', userId, { invite }, { at });
      return { value: { ...invite, code }, events: [event] };
    },

    async revoke(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      inviteId: string,
    ): Promise<WriteResult<void>> {
      const change = await ctx.open(groupId, userId);
      const [row] = await readNamed<InviteRow>(ctx.read, READS.invite(inviteId, groupId));
      if (!row) throw unknownInvite();
      if (row.revoked_at !== null) return { value: undefined, events: [] };
      const at = new Date();
      change.write(
        sql`update invites set revoked_at = ${at}::timestamptz from guard
             where invites.id = ${inviteId}::text and invites.group_id = guard.id and invites.revoked_at is null`,
      );
      const event = change.commit('invite.revoked', userId, { inviteId }, { at });
      return { value: undefined, events: [event] };
    },

    async list(userId: string, groupId: string): Promise<{ data: Invite[] }> {
      const rows = await readNamed<InviteRow & { member: boolean }>(runRead, READS.list(groupId, userId));
      if (!rows[0]?.member) throw notFound('Group');
      return { data: rows.filter((row) => row.id !== null).map(toInvite) };
    },

    async preview(userId: string, code: string): Promise<InvitePreview> {
      const [row] = await readNamed<{
        group_id: string;
        expires_at: Date | string;
        group_name: string;
        member_count: number | string;
        pending: [string, string][] | string | null;
        is_member: boolean;
      }>(runRead, READS.preview(sha256Hex(checkedCode(code)), userId));
      if (!row) throw unknownInvite();
      return {
        groupId: row.group_id,
        groupName: row.group_name,
        memberCount: Number(row.member_count),
        pendingMembers: (jsonColumn(row.pending) ?? []).map(([id, name]) => ({ userId: id, name })),
        expiresAt: toIso(row.expires_at),
        isMember: row.is_member,
      };
    },

    /** Pending members the caller may claim by email (API.md §3.3): at most 100, oldest first. */
    async claimable(userId: string): Promise<{ data: ClaimableMember[] }> {
      const rows = await readNamed<{ group_id: string; group_name: string; member_id: string; name: string }>(
        runRead,
        READS.claimable(userId),
      );
      return {
        data: rows.map((r) => ({
          groupId: r.group_id,
          groupName: r.group_name,
          memberId: r.member_id,
          name: r.name,
        })),
      };
    },

    /** Joins the invite's group, as a new member or (`asMember`) by taking over a pending member. */
    async accept(
      ctx: WriteContext,
      userId: string,
      code: string,
      input: { asMember?: string },
    ): Promise<WriteResult<Joined>> {
      const [invite] = await readNamed<InviteRow>(ctx.read, READS.liveInvite(sha256Hex(checkedCode(code))));
      if (!invite) throw unknownInvite();
      if (input.asMember === undefined) return join(ctx, userId, invite.group_id);
      const check = await pendingOf(ctx, input.asMember, userId, invite.group_id);
      return claim(ctx, userId, invite.group_id, input.asMember, check, 'invite');
    },

    /**
     * Takes over a pending member whose email (as the group typed it) is the caller's login email,
     * verified. A member added with another email or none is `404`, as anything else the caller
     * may not see; the caller's own address not yet verified is `403`; a member someone else
     * claimed is `409`.
     */
    async claimByEmail(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      pendingId: string,
    ): Promise<WriteResult<Joined>> {
      const check = await pendingOf(ctx, pendingId, userId, groupId);
      if (check.pending_email_normalized === null || check.pending_email_normalized !== check.account_email) {
        throw unknownMember();
      }
      return claim(ctx, userId, groupId, pendingId, check, 'email');
    },
  };
}

export type InvitesService = ReturnType<typeof createInvitesService>;

import type { InvitesService, Joined } from './groups/invites.service';
import { created, etagOf, noContent, ok, type Reply } from './http/reply';
import { bodyOf, param, type Route, route } from './http/route';
import type { WriteRoutes } from './http/write-route';

export type MemberRoutesDeps = {
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  invites: InvitesService;
};

/** `201` when the caller became a member by it, `200` when they already were; the group either way. */
const joinedReply = (j: Joined): Reply => {
  const headers = { ETag: etagOf(j.group.version) };
  return j.added
    ? created(j.group, { ...headers, Location: `/v1/groups/${j.group.id}` })
    : ok(j.group, headers);
};

/**
 * Invite links and claims of pending members (API.md §3.1–§3.3). Pending members themselves are
 * added by `POST /v1/groups/{groupId}/members` (ledger.routes.ts).
 */
export function memberRoutes(deps: MemberRoutesDeps): Route[] {
  const { invites } = deps;
  const { write } = deps.routes;
  return [
    write({
      operation: 'createInvite',
      parse: (req) => ({
        groupId: param(req, 'groupId'),
        input: bodyOf<{ expiresInDays?: number }>(req, {}),
      }),
      work: (ctx, userId, { groupId, input }) => invites.create(ctx, userId, groupId, input),
      reply: (invite) => created(invite),
    }),
    route('listInvites', async (req) => ok(await invites.list(req.userId, param(req, 'groupId')))),
    write({
      operation: 'revokeInvite',
      parse: (req) => ({ groupId: param(req, 'groupId'), inviteId: param(req, 'inviteId') }),
      work: (ctx, userId, { groupId, inviteId }) => invites.revoke(ctx, userId, groupId, inviteId),
      reply: () => noContent(),
    }),
    route('previewInvite', async (req) => ok(await invites.preview(req.userId, param(req, 'code')))),
    write({
      operation: 'acceptInvite',
      parse: (req) => ({ code: param(req, 'code'), input: bodyOf<{ asMember?: string }>(req, {}) }),
      work: (ctx, userId, { code, input }) => invites.accept(ctx, userId, code, input),
      reply: joinedReply,
    }),
    route('listClaimableMembers', async (req) => ok(await invites.claimable(req.userId))),
    write({
      operation: 'claimMember',
      parse: (req) => {
        // No body, or `{}`: an unknown field is refused as everywhere (API.md §1).
        bodyOf(req, {});
        return { groupId: param(req, 'groupId'), memberId: param(req, 'memberId') };
      },
      work: (ctx, userId, { groupId, memberId }) => invites.claimByEmail(ctx, userId, groupId, memberId),
      reply: joinedReply,
    }),
  ];
}

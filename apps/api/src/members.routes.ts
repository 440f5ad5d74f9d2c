import { notFound } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import { type Request, Router } from 'express';
import { userIdOf } from './auth/authenticate';
import type { InvitesService, Joined } from './groups/invites.service';
import { created, etagOf, noContent, ok, type Reply, sendReply } from './http/reply';
import { validate } from './http/validate';
import { createWriteRoutes, type WriteRouteInfo } from './http/write-route';
import type { Announcer } from './ledger/announcer';
import type { WriteRunner } from './ledger/write-runner';
import { acceptInviteBody, createInviteBody, noBody } from './schemas';

export type MemberRoutesDeps = {
  writes: WriteRunner;
  announcer: Announcer;
  invites: InvitesService;
  idempotency?: IdempotencyLayer | undefined;
};

const param = (req: Request, name: string): string => {
  const value = req.params[name];
  // A NUL can never be part of an id or a code: nothing is found.
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
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
export function memberRoutes(deps: MemberRoutesDeps): {
  router: Router;
  writeRoutes: readonly WriteRouteInfo[];
} {
  const { invites } = deps;
  const router = Router();
  const writes = createWriteRoutes({
    router,
    mountPath: '/v1',
    writes: deps.writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
  });

  writes.post('/groups/:groupId/invites', {
    key: 'optional',
    parse: (req) => ({
      groupId: param(req, 'groupId'),
      input: validate<{ expiresInDays?: number }>(createInviteBody, req.body ?? {}),
    }),
    work: (ctx, userId, { groupId, input }) => invites.create(ctx, userId, groupId, input),
    reply: (invite) => created(invite),
  });
  router.get('/groups/:groupId/invites', async (req, res) => {
    sendReply(res, ok(await invites.list(userIdOf(res), param(req, 'groupId'))));
  });
  writes.delete('/groups/:groupId/invites/:inviteId', {
    key: 'optional',
    parse: (req) => ({ groupId: param(req, 'groupId'), inviteId: param(req, 'inviteId') }),
    work: (ctx, userId, { groupId, inviteId }) => invites.revoke(ctx, userId, groupId, inviteId),
    reply: () => noContent(),
  });
  router.get('/invites/:code', async (req, res) => {
    sendReply(res, ok(await invites.preview(userIdOf(res), param(req, 'code'))));
  });
  writes.post('/invites/:code/accept', {
    key: 'optional',
    parse: (req) => ({
      code: param(req, 'code'),
      input: validate<{ asMember?: string }>(acceptInviteBody, req.body ?? {}),
    }),
    work: (ctx, userId, { code, input }) => invites.accept(ctx, userId, code, input),
    reply: joinedReply,
  });
  router.get('/me/claimable-members', async (_req, res) => {
    sendReply(res, ok(await invites.claimable(userIdOf(res))));
  });
  writes.post('/groups/:groupId/members/:memberId/claim', {
    key: 'optional',
    parse: (req) => {
      // No body, or `{}`: an unknown field is refused as everywhere (API.md §1).
      validate(noBody, req.body ?? {});
      return { groupId: param(req, 'groupId'), memberId: param(req, 'memberId') };
    },
    work: (ctx, userId, { groupId, memberId }) => invites.claimByEmail(ctx, userId, groupId, memberId),
    reply: joinedReply,
  });

  return { router, writeRoutes: writes.routes() };
}

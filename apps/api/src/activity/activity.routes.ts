import type { IdempotencyLayer } from '@tally/idempotency';
import { Router } from 'express';
import { userIdOf } from '../auth/authenticate';
import { ok, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import { createWriteRoutes, type WriteRouteInfo } from '../http/write-route';
import type { Announcer } from '../ledger/announcer';
import type { WriteRunner } from '../ledger/write-runner';
import { activityReadBody, listQuery } from '../schemas';
import type { ActivityService } from './activity.service';

export type ActivityRoutesDeps = {
  writes: WriteRunner;
  announcer: Announcer;
  activity: ActivityService;
  idempotency?: IdempotencyLayer | undefined;
};

/** Activity across the caller's groups (API.md §8a). */
export function activityRoutes(deps: ActivityRoutesDeps): {
  router: Router;
  writeRoutes: readonly WriteRouteInfo[];
} {
  const { activity } = deps;
  const router = Router();
  const writes = createWriteRoutes({
    router,
    mountPath: '/v1',
    writes: deps.writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
  });

  router.get('/me/activity', async (req, res) => {
    const query = validate<{ limit: number; cursor?: string }>(listQuery, req.query, 'query');
    sendReply(res, ok(await activity.list(userIdOf(res), query)));
  });
  // The marker changes no group: no GroupChange, no event. It only moves forward, so running it
  // again is harmless; a keyed request's answer is recorded on its own after it (`recordAlone`).
  writes.post('/me/activity/read', {
    key: 'optional',
    parse: (req) => validate<{ upTo: string }>(activityReadBody, req.body),
    work: async (_ctx, userId, { upTo }) => ({ value: await activity.markRead(userId, upTo), events: [] }),
    reply: (unread) => ok(unread),
  });

  return { router, writeRoutes: writes.routes() };
}

import { ok } from '../http/reply';
import { bodyOf, queryOf, type Route, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import type { ReadRouting } from '../read-routing';
import type { ActivityService } from './activity.service';

export type ActivityRoutesDeps = {
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  activity: ActivityService;
  /** Where the feed is read (read-routing.ts). */
  reads: ReadRouting;
};

/** Activity across the caller's groups (API.md §8a). */
export function activityRoutes(deps: ActivityRoutesDeps): Route[] {
  const { activity } = deps;
  return [
    route('listActivity', async (req) => {
      const query = queryOf<{ limit: number; cursor?: string }>(req);
      return ok(await deps.reads.run(req.headers, (db) => activity.list(req.userId, query, db)));
    }),
    // The marker changes no group: no GroupChange, no event. It only moves forward, so running it
    // again is harmless; a keyed request's answer is recorded on its own after it (`recordAlone`).
    deps.routes.write({
      operation: 'markActivityRead',
      parse: (req) => bodyOf<{ upTo: string }>(req),
      work: async (_ctx, userId, { upTo }) => ({ value: await activity.markRead(userId, upTo), events: [] }),
      reply: (unread) => ok(unread),
    }),
  ];
}

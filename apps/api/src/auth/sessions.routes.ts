import { noContent, ok } from '../http/reply';
import { type Route, route } from '../http/route';
import type { Sessions } from './sessions';

/**
 * Sessions and signing out (API.md §2): `GET /v1/me/sessions`, `DELETE /v1/me/sessions/{id}`,
 * `POST /v1/auth/logout`, `POST /v1/auth/logout-all`. Unlike the other `/v1/auth` routes, signing
 * out needs the bearer access token (the per-IP `/auth` budget applies as well).
 */
export function sessionRoutes(deps: { sessions: Sessions }): Route[] {
  return [
    route('listSessions', async (req) => ok({ data: await deps.sessions.list(req.userId, req.sessionId) })),
    route('revokeSession', async (req) => {
      await deps.sessions.revoke(req.userId, String(req.params['sessionId']));
      return noContent();
    }),
    route('logout', async (req) => {
      await deps.sessions.logout(req.userId, req.sessionId);
      return noContent();
    }),
    route('logoutAll', async (req) => {
      await deps.sessions.logoutAll(req.userId);
      return noContent();
    }),
  ];
}

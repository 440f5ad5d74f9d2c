import { Router } from 'express';
import { noContent, ok, sendReply } from '../http/reply';
import { sessionIdOf, userIdOf } from './authenticate';
import type { Sessions } from './sessions';

/**
 * Sessions and signing out (API.md §2): `GET /v1/me/sessions`, `DELETE /v1/me/sessions/{id}`,
 * `POST /v1/auth/logout`, `POST /v1/auth/logout-all`. Mounted after authentication and the per-user
 * rate limit: unlike the other `/v1/auth` routes, signing out needs the bearer access token (the
 * per-IP `/auth` budget applies as well).
 */
export function sessionRoutes(deps: { sessions: Sessions }): Router {
  const router = Router();
  router.get('/me/sessions', async (_req, res) => {
    const items = await deps.sessions.list(userIdOf(res), sessionIdOf(res));
    sendReply(res, ok({ data: items }));
  });
  router.delete('/me/sessions/:sessionId', async (req, res) => {
    await deps.sessions.revoke(userIdOf(res), String(req.params['sessionId']));
    sendReply(res, noContent());
  });
  router.post('/auth/logout', async (_req, res) => {
    await deps.sessions.logout(userIdOf(res), sessionIdOf(res));
    sendReply(res, noContent());
  });
  router.post('/auth/logout-all', async (_req, res) => {
    await deps.sessions.logoutAll(userIdOf(res));
    sendReply(res, noContent());
  });
  return router;
}

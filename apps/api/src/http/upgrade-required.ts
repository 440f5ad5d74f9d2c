import { AppError } from '@tally/http-kit';
import type { RequestHandler } from 'express';

/** `GET /v1/ws` is a WebSocket: the path the upgrade is served on (by the gateway, below express). */
export const WEBSOCKET_PATH = '/v1/ws';

/**
 * A plain `GET /v1/ws` (no `Upgrade: websocket`): `426 Upgrade Required` (RFC 9110 §15.5.22) as
 * problem+json with `Upgrade: websocket`, code `upgrade_required`, before authentication. An upgrade
 * that reaches express was not taken by a gateway (a `ROLE=api` process serves none): it goes on to
 * the routes as before.
 */
export const upgradeRequired: RequestHandler = (req, _res, next) => {
  if (/(?:^|,)\s*websocket\s*(?:$|,)/i.test(req.headers.upgrade ?? '')) {
    next();
    return;
  }
  // RFC 9110 §7.8: who sends Upgrade also names it in Connection.
  throw new AppError(
    'upgrade_required',
    426,
    `${WEBSOCKET_PATH} is a WebSocket: open it with an upgrade request (Connection: Upgrade, Upgrade: websocket).`,
    { headers: { Upgrade: 'websocket', Connection: 'Upgrade' } },
  );
};

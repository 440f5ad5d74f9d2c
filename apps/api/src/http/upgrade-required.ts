import type { IncomingMessage } from 'node:http';
import { AppError } from '@tally/http-kit';
import type { RequestHandler } from 'express';

/** `GET /v1/ws` is a WebSocket: the path the upgrade is served on (by the gateway, below express). */
export const WEBSOCKET_PATH = '/v1/ws';

/** A request that asks for a WebSocket (`Upgrade: websocket`). */
export const isUpgrade = (req: IncomingMessage): boolean =>
  /(?:^|,)\s*websocket\s*(?:$|,)/i.test(req.headers.upgrade ?? '');

/**
 * A plain `GET /v1/ws` (no `Upgrade: websocket`): `426 Upgrade Required` (RFC 9110 §15.5.22) as
 * problem+json with `Upgrade: websocket`, code `upgrade_required`, before authentication.
 */
export const upgradeRequiredError = (): AppError =>
  // RFC 9110 §7.8: who sends Upgrade also names it in Connection.
  new AppError(
    'upgrade_required',
    426,
    `${WEBSOCKET_PATH} is a WebSocket: open it with an upgrade request (Connection: Upgrade, Upgrade: websocket).`,
    { headers: { Upgrade: 'websocket', Connection: 'Upgrade' } },
  );

/**
 * The gateway's route for it (the API's is declared in create-app.ts): an upgrade that reaches
 * express was not taken by the WebSocket server; it goes on to the routes as before.
 */
export const upgradeRequired: RequestHandler = (req, _res, next) => {
  if (isUpgrade(req)) {
    next();
    return;
  }
  throw upgradeRequiredError();
};

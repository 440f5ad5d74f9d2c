import { PROBLEM_CONTENT_TYPE } from '@tally/http-kit';
import type { RequestHandler } from 'express';
import { requestIdOf } from './request-id';

/** `GET /v1/ws` is a WebSocket: the path the upgrade is served on (by the gateway, below express). */
export const WEBSOCKET_PATH = '/v1/ws';

/**
 * A plain `GET /v1/ws` (no `Upgrade: websocket`): `426 Upgrade Required` (RFC 9110 §15.5.22) as
 * problem+json with `Upgrade: websocket`, code `upgrade_required`, before authentication. An upgrade
 * that reaches express was not taken by a gateway (a `ROLE=api` process serves none): it goes on to
 * the routes as before.
 */
export const upgradeRequired: RequestHandler = (req, res, next) => {
  if (/(?:^|,)\s*websocket\s*(?:$|,)/i.test(req.headers.upgrade ?? '')) {
    next();
    return;
  }
  const requestId = requestIdOf(res);
  const connection = res.getHeader('Connection');
  res
    .status(426)
    .setHeader('Upgrade', 'websocket')
    // RFC 9110 §7.8: who sends Upgrade also names it in Connection (a `close` already set stays).
    .setHeader('Connection', connection ? `${String(connection)}, Upgrade` : 'Upgrade')
    .type(PROBLEM_CONTENT_TYPE)
    .send(
      JSON.stringify({
        type: '/problems/upgrade-required',
        title: 'Upgrade required',
        status: 426,
        code: 'upgrade_required',
        detail: `${WEBSOCKET_PATH} is a WebSocket: open it with an upgrade request (Connection: Upgrade, Upgrade: websocket).`,
        requestId,
      }),
    );
};

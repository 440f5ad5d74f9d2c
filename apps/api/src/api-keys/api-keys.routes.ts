import { validationFailed } from '@tally/http-kit';
import { created, noContent, ok } from '../http/reply';
import { bodyOf, param, type Route, route } from '../http/route';
import type { ApiKeys, NewApiKey } from './api-keys.service';
import type { KeyScope } from './scopes';

type Body = { name: string; scopes: KeyScope[]; expiresAt?: string };

/**
 * API keys (API.md §2.6): `POST`, `GET /v1/me/api-keys`, `DELETE /v1/me/api-keys/{keyId}`. Only a
 * signed-in person reaches them: a request with a key is refused before (`insufficient_scope`).
 * Not keyed: the secret of a `201` must never be kept for a replay.
 */
export function apiKeyRoutes(deps: { apiKeys: ApiKeys }): Route[] {
  return [
    route('createApiKey', async (req) => {
      const body = bodyOf<Body>(req);
      const input: NewApiKey = { name: body.name, scopes: body.scopes };
      if (body.expiresAt !== undefined) {
        input.expiresAt = new Date(body.expiresAt);
        if (input.expiresAt.getTime() <= Date.now()) {
          throw validationFailed([{ path: 'expiresAt', message: 'must be in the future' }]);
        }
      }
      return created(await deps.apiKeys.create(req.userId, input));
    }),
    route('listApiKeys', async (req) => ok({ data: await deps.apiKeys.list(req.userId) })),
    route('revokeApiKey', async (req) => {
      await deps.apiKeys.revoke(req.userId, param(req, 'keyId'));
      return noContent();
    }),
  ];
}
